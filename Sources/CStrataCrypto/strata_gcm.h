// AES-256-GCM on x86-64's AES-NI and PCLMULQDQ instructions, for records too small for
// libcrypto's per-call set-up to be worth it. Produces exactly what libcrypto's AES-256-GCM
// produces for the same key, nonce and additional data (CipherEngineTests opens each one's
// records with the other). Internal to CStrataCrypto: strata_crypto.c chooses it when the CPU
// has the instructions.
#ifndef STRATA_GCM_H
#define STRATA_GCM_H

#include <stddef.h>
#include <stdint.h>

/// The expanded key: the 15 AES-256 round keys and the powers H, H^2, ..., H^8 of the GHASH
/// key H = AES(key, 0), kept byte-reversed (the bit order GHASH's polynomial arithmetic works
/// in), so that up to eight blocks are hashed with one reduction.
typedef struct strata_gcm_key {
    _Alignas(16) uint8_t round_keys[15][16];
    _Alignas(16) uint8_t hash_powers[8][16];
} strata_gcm_key;

/// Whether this CPU has the instructions (AES-NI, PCLMULQDQ, SSSE3, SSE4.1); always 0 off x86-64.
int strata_gcm_supported(void);

/// Expands the 32-byte AES-256 `key` into `expanded`. Only when `strata_gcm_supported()`.
void strata_gcm_expand(strata_gcm_key *expanded, const uint8_t *key);

/// Encrypts `count` bytes of `plain` into `out` under the 12-byte `nonce`, authenticating
/// the additional data `aad1` then `aad2` (one stream) and the ciphertext: writes the
/// 16-byte tag to `tag`.
void strata_gcm_seal(const strata_gcm_key *key, const uint8_t *nonce, const void *aad1, size_t aad1_count,
                     const void *aad2, size_t aad2_count, const uint8_t *plain, size_t count, uint8_t *out,
                     uint8_t *tag);

/// Decrypts `count` bytes of `sealed` into `out` when `tag` authenticates them with the
/// additional data: returns 0, or -1 (and `out` zeroed) when it does not.
int strata_gcm_open(const strata_gcm_key *key, const uint8_t *nonce, const void *aad1, size_t aad1_count,
                    const void *aad2, size_t aad2_count, const uint8_t *sealed, size_t count, const uint8_t *tag,
                    uint8_t *out);

#endif
