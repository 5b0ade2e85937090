// AES-256-GCM record sealing and HMAC-SHA-256 keyed hashes for encrypted files
// (docs/ENCRYPTION.md): records on the CPU's AES-NI and PCLMULQDQ instructions when it has
// them, else on OpenSSL's libcrypto's EVP interface; hashes from precomputed SHA-256 states,
// or through EVP. A `strata_cipher` holds its
// contexts with the key schedule set once; sealing or opening a record only sets its nonce,
// so no record allocates. A cipher is used by one thread at a time.
#ifndef STRATA_CRYPTO_H
#define STRATA_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

/// Bytes of a nonce, of a tag, and of each half of the 64-byte key.
#define STRATA_NONCE_BYTES 12
#define STRATA_TAG_BYTES 16
#define STRATA_KEY_HALF_BYTES 32

typedef struct strata_cipher strata_cipher;

/// What seals, opens and hashes: the fastest implementations this CPU has, or libcrypto's
/// EVP interface alone (the two produce the same records and hashes; tests compare them).
typedef enum { STRATA_CIPHER_FASTEST = 0, STRATA_CIPHER_LIBCRYPTO = 1 } strata_cipher_engine;

/// A cipher for `key` (64 bytes: the AES-256 key, then the HMAC-SHA-256 key), its nonces
/// starting at a random prefix and counter, on the fastest engine; NULL when libcrypto fails
/// or no random bytes can be read.
strata_cipher *strata_cipher_new(const uint8_t *key);

/// `strata_cipher_new` on `engine`.
strata_cipher *strata_cipher_new_on(const uint8_t *key, strata_cipher_engine engine);

/// Whether `cipher` seals and opens records on AES-NI and PCLMULQDQ (not through libcrypto).
int strata_cipher_uses_aesni(const strata_cipher *cipher);

/// Frees `cipher` and wipes its keys.
void strata_cipher_free(strata_cipher *cipher);

/// Seals `count` bytes of `plain` with the additional data `aad1` then `aad2`: writes the
/// nonce, the ciphertext and the tag (count + 28 bytes) to `out`. Returns 0, or -1 when
/// libcrypto fails (the AES-NI engine cannot fail).
int strata_cipher_seal(strata_cipher *cipher, const void *aad1, size_t aad1_count, const void *aad2, size_t aad2_count,
                       const void *plain, size_t count, uint8_t *out);

/// Opens a sealed record of `count` bytes (nonce, ciphertext, tag): writes count - 28 bytes
/// of plaintext to `out`. Returns 0 when the tag matches, -1 otherwise (damaged, another
/// key, another database or record key).
int strata_cipher_open(strata_cipher *cipher, const void *aad1, size_t aad1_count, const void *aad2, size_t aad2_count,
                       const void *sealed, size_t count, uint8_t *out);

/// A run of bytes, laid out as LMDB's `MDB_val` (its length, then its address), so that a
/// cursor's entries are handed over as they are.
typedef struct {
    size_t count;
    const void *bytes;
} strata_span;

/// Opens the records `sealed[0..<count]` one after another, record i with the additional
/// data `aad1 ‖ keys[i]`, writing their plaintexts back to back from `out`, as long as they
/// fit in `capacity` bytes. Returns how many opened, and in `written` their plaintexts'
/// bytes: it stops before the first that does not fit, and at the first that does not
/// authenticate (or is shorter than a nonce and tag). Bytes of `out` past `written` (within
/// `capacity`) may have been written too.
size_t strata_cipher_open_run(strata_cipher *cipher, const void *aad1, size_t aad1_count, const strata_span *keys,
                              const strata_span *sealed, size_t count, uint8_t *out, size_t capacity, size_t *written);

/// The HMAC-SHA-256, with the key's second half, of `part1` then `part2` then `part3`
/// (32 bytes to `out`). Returns 0, or -1 when libcrypto fails.
int strata_cipher_hash(strata_cipher *cipher, const void *part1, size_t count1, const void *part2, size_t count2,
                       const void *part3, size_t count3, uint8_t *out);

#endif
