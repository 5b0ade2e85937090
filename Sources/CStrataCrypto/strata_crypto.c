#include "strata_crypto.h"
#include "strata_gcm.h"
#include "strata_hmac.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

struct strata_cipher {
    /// The expanded key of `strata_gcm_seal`/`open`, when `aesni` (the CPU has the
    /// instructions and the cipher was not asked for libcrypto alone); else records go
    /// through the two EVP contexts.
    strata_gcm_key gcm;
    int aesni;
    EVP_CIPHER_CTX *seal;
    EVP_CIPHER_CTX *open;
    EVP_MAC_CTX *hash;
    /// The keyed hash's precomputed states, on the fastest engine (else hashes go through
    /// `hash`).
    strata_hmac_key *keyed_hash;
    /// The nonce: 4 random bytes of this cipher, then a 64-bit counter from a random start,
    /// incremented per sealed record.
    uint32_t prefix;
    uint64_t counter;
};

static int random_bytes(void *out, size_t count) {
    uint8_t *p = out;
    while (count > 0) {
        ssize_t n = getrandom(p, count, 0);
        if (n <= 0) return -1;
        p += n;
        count -= (size_t)n;
    }
    return 0;
}

strata_cipher *strata_cipher_new(const uint8_t *key) { return strata_cipher_new_on(key, STRATA_CIPHER_FASTEST); }

strata_cipher *strata_cipher_new_on(const uint8_t *key, strata_cipher_engine engine) {
    strata_cipher *c = aligned_alloc(_Alignof(strata_cipher), sizeof *c);
    if (c == NULL) return NULL;
    memset(c, 0, sizeof *c);
    c->aesni = engine == STRATA_CIPHER_FASTEST && strata_gcm_supported();
    if (c->aesni) strata_gcm_expand(&c->gcm, key);
    if (engine == STRATA_CIPHER_FASTEST && (c->keyed_hash = strata_hmac_new(key + STRATA_KEY_HALF_BYTES)) == NULL) {
        strata_cipher_free(c);
        return NULL;
    }
    c->seal = EVP_CIPHER_CTX_new();
    c->open = EVP_CIPHER_CTX_new();
    EVP_MAC *hmac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    c->hash = hmac ? EVP_MAC_CTX_new(hmac) : NULL;
    EVP_MAC_free(hmac);
    char digest[] = "SHA256";
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("digest", digest, 0), OSSL_PARAM_construct_end()};
    if (c->seal == NULL || c->open == NULL || c->hash == NULL
        || EVP_EncryptInit_ex(c->seal, EVP_aes_256_gcm(), NULL, key, NULL) != 1
        || EVP_DecryptInit_ex(c->open, EVP_aes_256_gcm(), NULL, key, NULL) != 1
        || EVP_MAC_init(c->hash, key + STRATA_KEY_HALF_BYTES, STRATA_KEY_HALF_BYTES, params) != 1
        || random_bytes(&c->prefix, sizeof c->prefix) != 0 || random_bytes(&c->counter, sizeof c->counter) != 0) {
        strata_cipher_free(c);
        return NULL;
    }
    return c;
}

void strata_cipher_free(strata_cipher *c) {
    if (c == NULL) return;
    EVP_CIPHER_CTX_free(c->seal);
    EVP_CIPHER_CTX_free(c->open);
    EVP_MAC_CTX_free(c->hash);
    strata_hmac_free(c->keyed_hash);
    OPENSSL_cleanse(c, sizeof *c);
    free(c);
}

// The additional data is `aad1` then `aad2`. GCM reads it as one stream, so when both are
// short (a database name and a record key) they go to OpenSSL joined, in one call.
static int add_aad(EVP_CIPHER_CTX *ctx, int (*update)(EVP_CIPHER_CTX *, unsigned char *, int *, const unsigned char *, int),
                   const void *aad1, size_t n1, const void *aad2, size_t n2) {
    int len;
    uint8_t joined[256];
    if (n1 > 0 && n2 > 0 && n1 + n2 <= sizeof joined) {
        memcpy(joined, aad1, n1);
        memcpy(joined + n1, aad2, n2);
        return update(ctx, NULL, &len, joined, (int)(n1 + n2)) == 1 ? 0 : -1;
    }
    if (n1 > 0 && update(ctx, NULL, &len, aad1, (int)n1) != 1) return -1;
    if (n2 > 0 && update(ctx, NULL, &len, aad2, (int)n2) != 1) return -1;
    return 0;
}

int strata_cipher_seal(strata_cipher *c, const void *aad1, size_t n1, const void *aad2, size_t n2,
                       const void *plain, size_t count, uint8_t *out) {
    if (count > INT32_MAX) return -1;
    uint8_t *nonce = out;
    memcpy(nonce, &c->prefix, 4);
    uint64_t counter = c->counter++;
    memcpy(nonce + 4, &counter, 8);
    if (c->aesni) {
        strata_gcm_seal(&c->gcm, nonce, aad1, n1, aad2, n2, plain, count, out + STRATA_NONCE_BYTES,
                        out + STRATA_NONCE_BYTES + count);
        return 0;
    }
    int len, final;
    if (EVP_EncryptInit_ex(c->seal, NULL, NULL, NULL, nonce) != 1
        || add_aad(c->seal, EVP_EncryptUpdate, aad1, n1, aad2, n2) != 0
        || (count > 0 && EVP_EncryptUpdate(c->seal, out + STRATA_NONCE_BYTES, &len, plain, (int)count) != 1)
        || EVP_EncryptFinal_ex(c->seal, out + STRATA_NONCE_BYTES + count, &final) != 1
        || EVP_CIPHER_CTX_ctrl(c->seal, EVP_CTRL_GCM_GET_TAG, STRATA_TAG_BYTES, out + STRATA_NONCE_BYTES + count) != 1) {
        return -1;
    }
    return 0;
}

// Opens the record `bytes` (a nonce, `body` bytes of ciphertext, a tag) through EVP.
static int open_with_libcrypto(strata_cipher *c, const void *aad1, size_t n1, const void *aad2, size_t n2,
                               const uint8_t *bytes, size_t body, uint8_t *out) {
    uint8_t tag[STRATA_TAG_BYTES];
    memcpy(tag, bytes + STRATA_NONCE_BYTES + body, STRATA_TAG_BYTES);
    int len, final;
    if (EVP_DecryptInit_ex(c->open, NULL, NULL, NULL, bytes) != 1
        || add_aad(c->open, EVP_DecryptUpdate, aad1, n1, aad2, n2) != 0
        || (body > 0 && EVP_DecryptUpdate(c->open, out, &len, bytes + STRATA_NONCE_BYTES, (int)body) != 1)
        || EVP_CIPHER_CTX_ctrl(c->open, EVP_CTRL_GCM_SET_TAG, STRATA_TAG_BYTES, tag) != 1
        || EVP_DecryptFinal_ex(c->open, out + body, &final) != 1) {
        if (body > 0) OPENSSL_cleanse(out, body);
        return -1;
    }
    return 0;
}

// Opens the record `bytes` of `count` bytes (at least a nonce and a tag) on the cipher's engine.
// Records are at most 2 GiB, as sealing makes them (far inside GCM's 64 GiB per nonce).
static inline int open_record(strata_cipher *c, const void *aad1, size_t n1, const void *aad2, size_t n2,
                              const uint8_t *bytes, size_t count, uint8_t *out) {
    if (count > INT32_MAX) return -1;
    size_t body = count - STRATA_NONCE_BYTES - STRATA_TAG_BYTES;
    if (!c->aesni) return open_with_libcrypto(c, aad1, n1, aad2, n2, bytes, body, out);
    return strata_gcm_open(&c->gcm, bytes, aad1, n1, aad2, n2, bytes + STRATA_NONCE_BYTES, body,
                           bytes + STRATA_NONCE_BYTES + body, out);
}

int strata_cipher_open(strata_cipher *c, const void *aad1, size_t n1, const void *aad2, size_t n2,
                       const void *sealed, size_t count, uint8_t *out) {
    if (count < STRATA_NONCE_BYTES + STRATA_TAG_BYTES) return -1;
    return open_record(c, aad1, n1, aad2, n2, sealed, count, out);
}

size_t strata_cipher_open_run(strata_cipher *c, const void *aad1, size_t n1, const strata_span *keys,
                              const strata_span *sealed, size_t count, uint8_t *out, size_t capacity, size_t *written) {
    const size_t overhead = STRATA_NONCE_BYTES + STRATA_TAG_BYTES;
    // Records keyed by 8 bytes (a table's rows) open straight from the page where the run's
    // layout allows; any other through `open_record`.
    strata_gcm_run run;
    int in_place = c->aesni && strata_gcm_prepare_run(&run, aad1, n1);
    size_t opened = 0, used = 0;
    for (; opened < count; opened++) {
        size_t size = sealed[opened].count;
        if (size < overhead || size - overhead > capacity - used) break;
        size_t body = size - overhead, room = capacity - used;
        uint8_t *to = out + used;
        if (in_place && keys[opened].count == 8) {
            int status = strata_gcm_open_in_run(&c->gcm, &run, keys[opened].bytes, sealed[opened].bytes, body, to, room);
            if (status < 0) break;
            if (status == 0) {
                used += body;
                continue;
            }
        }
        if (open_record(c, aad1, n1, keys[opened].bytes, keys[opened].count, sealed[opened].bytes, size, to) != 0) break;
        used += body;
    }
    *written = used;
    return opened;
}

int strata_cipher_uses_aesni(const strata_cipher *c) { return c->aesni; }

int strata_cipher_hash(strata_cipher *c, const void *p1, size_t n1, const void *p2, size_t n2,
                       const void *p3, size_t n3, uint8_t *out) {
    if (c->keyed_hash != NULL) {
        strata_hmac(c->keyed_hash, p1, n1, p2, n2, p3, n3, out);
        return 0;
    }
    size_t len;
    // A NULL key re-initialises the MAC with the key set by `strata_cipher_new`.
    if (EVP_MAC_init(c->hash, NULL, 0, NULL) != 1
        || (n1 > 0 && EVP_MAC_update(c->hash, p1, n1) != 1)
        || (n2 > 0 && EVP_MAC_update(c->hash, p2, n2) != 1)
        || (n3 > 0 && EVP_MAC_update(c->hash, p3, n3) != 1)
        || EVP_MAC_final(c->hash, out, &len, 32) != 1) {
        return -1;
    }
    return 0;
}
