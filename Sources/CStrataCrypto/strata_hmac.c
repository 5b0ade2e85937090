// The SHA-256 calls below are libcrypto's low-level ones, deprecated in OpenSSL 3 in favour
// of EVP: they are what lets a hash state be copied after the key's block, and they run on
// the CPU's SHA instructions where it has them. This file alone uses them.
#define OPENSSL_SUPPRESS_DEPRECATED

#include "strata_hmac.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

/// The SHA-256 states after the key's inner and outer padded blocks.
struct strata_hmac_key {
    SHA256_CTX inner;
    SHA256_CTX outer;
};

strata_hmac_key *strata_hmac_new(const uint8_t *key) {
    strata_hmac_key *k = calloc(1, sizeof *k);
    if (k == NULL) return NULL;
    uint8_t inner_pad[SHA256_CBLOCK], outer_pad[SHA256_CBLOCK];
    // A 32-byte key is shorter than the block: it is zero-padded, not hashed first.
    for (size_t i = 0; i < SHA256_CBLOCK; i++) {
        uint8_t byte = i < 32 ? key[i] : 0;
        inner_pad[i] = byte ^ 0x36;
        outer_pad[i] = byte ^ 0x5c;
    }
    SHA256_Init(&k->inner);
    SHA256_Update(&k->inner, inner_pad, sizeof inner_pad);
    SHA256_Init(&k->outer);
    SHA256_Update(&k->outer, outer_pad, sizeof outer_pad);
    OPENSSL_cleanse(inner_pad, sizeof inner_pad);
    OPENSSL_cleanse(outer_pad, sizeof outer_pad);
    return k;
}

void strata_hmac_free(strata_hmac_key *key) {
    if (key == NULL) return;
    OPENSSL_cleanse(key, sizeof *key);
    free(key);
}

void strata_hmac(const strata_hmac_key *key, const void *p1, size_t n1, const void *p2, size_t n2, const void *p3,
                 size_t n3, uint8_t *out) {
    SHA256_CTX ctx = key->inner;
    if (n1 > 0) SHA256_Update(&ctx, p1, n1);
    if (n2 > 0) SHA256_Update(&ctx, p2, n2);
    if (n3 > 0) SHA256_Update(&ctx, p3, n3);
    uint8_t inner[SHA256_DIGEST_LENGTH];
    SHA256_Final(inner, &ctx);
    ctx = key->outer;
    SHA256_Update(&ctx, inner, sizeof inner);
    SHA256_Final(out, &ctx);
    OPENSSL_cleanse(&ctx, sizeof ctx);
}
