// HMAC-SHA-256 with the key's padded blocks hashed once: a keyed hash then costs its two
// SHA-256 compressions and little else (libcrypto's EVP_MAC sets up and looks up its
// parameters on every call). Produces exactly libcrypto's HMAC-SHA-256 (CipherEngineTests
// compares them). Internal to CStrataCrypto.
#ifndef STRATA_HMAC_H
#define STRATA_HMAC_H

#include <stddef.h>
#include <stdint.h>

typedef struct strata_hmac_key strata_hmac_key;

/// The HMAC key of the 32-byte `key`; NULL when out of memory.
strata_hmac_key *strata_hmac_new(const uint8_t *key);

/// Frees `key` and wipes it.
void strata_hmac_free(strata_hmac_key *key);

/// HMAC-SHA-256 of `p1 ‖ p2 ‖ p3` under `key`, 32 bytes to `out`.
void strata_hmac(const strata_hmac_key *key, const void *p1, size_t n1, const void *p2, size_t n2, const void *p3,
                 size_t n3, uint8_t *out);

#endif
