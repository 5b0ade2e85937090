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

/// The additional data a run of records shares, laid out once per run: a fixed `aad1` (a
/// database name) then each record's 8-byte key. `aad1`'s bytes zero-padded to whole blocks,
/// how many blocks `aad1` and a key fill, the block a key begins in, and the byte shuffles
/// that move a key's bytes to their places in that block and the next.
typedef struct strata_gcm_run {
    _Alignas(16) uint8_t blocks[8][16];
    _Alignas(16) uint8_t key_shuffles[2][16];
    int block_count, key_block;
    size_t aad_count;
} strata_gcm_run;

/// Lays out `run` for records authenticated with `aad1` and an 8-byte record key: returns 1,
/// or 0 when the additional data leaves no room for a short record (records then open through
/// `strata_gcm_open`).
int strata_gcm_prepare_run(strata_gcm_run *run, const void *aad1, size_t aad1_count);

/// Opens one record of a prepared run straight from where it lies, every block read from the
/// record (no copy through memory): `record` is the sealed record (a 12-byte nonce, `count`
/// bytes of ciphertext, the 16-byte tag), `record_key` its 8-byte key. Writes whole blocks
/// to `out`, which has `room` bytes: the plaintext, then zeros to the block's end. Returns 0,
/// -1 when the tag does not authenticate (nothing written), or 1 when the record is not one
/// this path takes (too long, or too little room): open it with `strata_gcm_open`.
int strata_gcm_open_in_run(const strata_gcm_key *key, const strata_gcm_run *run, const uint8_t *record_key,
                           const uint8_t *record, size_t count, uint8_t *out, size_t room);

#endif
