#include "strata_gcm.h"

#if defined(__x86_64__)

#include <cpuid.h>
#include <immintrin.h>
#include <openssl/crypto.h>
#include <string.h>

// Every function touching the instructions is compiled for them; callers check
// `strata_gcm_supported()` first, so the rest of the binary runs on any x86-64.
#define GCM_TARGET __attribute__((target("aes,pclmul,ssse3,sse4.1")))

/// Blocks encrypted together: AES-NI has several rounds in flight at once.
#define LANES 4
/// The most blocks a short record's GHASH covers (`open_short`, `seal_short`): its additional
/// data, its ciphertext and the lengths block, hashed with one reduction.
#define SHORT_BLOCKS 8
_Static_assert(SHORT_BLOCKS == sizeof ((strata_gcm_key *)0)->hash_powers / 16, "a power of H for each block");
_Static_assert(LANES <= SHORT_BLOCKS, "a power of H for each lane");

int strata_gcm_supported(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned pclmul = 1u << 1, ssse3 = 1u << 9, sse41 = 1u << 19, aes = 1u << 25;
    const unsigned needed = pclmul | ssse3 | sse41 | aes;
    return (c & needed) == needed;
}

/// `x` with its 16 bytes in reverse order.
GCM_TARGET static inline __m128i reversed(__m128i x) {
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/// One half-step of the AES-256 key schedule: `previous` (the round key two back) mixed
/// with `word`, the key-generation assist's output broadcast to every lane.
GCM_TARGET static inline __m128i schedule_step(__m128i previous, __m128i word) {
    previous = _mm_xor_si128(previous, _mm_slli_si128(previous, 4));
    previous = _mm_xor_si128(previous, _mm_slli_si128(previous, 4));
    previous = _mm_xor_si128(previous, _mm_slli_si128(previous, 4));
    return _mm_xor_si128(previous, word);
}

/// Encrypts the first `n` of `blocks` in place, their rounds interleaved (inlined with a
/// constant `n`, the blocks stay in registers).
GCM_TARGET __attribute__((always_inline)) static inline void encrypt_blocks(const __m128i *keys, __m128i *blocks, int n) {
    for (int i = 0; i < n; i++) blocks[i] = _mm_xor_si128(blocks[i], keys[0]);
    for (int round = 1; round < 14; round++) {
        for (int i = 0; i < n; i++) blocks[i] = _mm_aesenc_si128(blocks[i], keys[round]);
    }
    for (int i = 0; i < n; i++) blocks[i] = _mm_aesenclast_si128(blocks[i], keys[14]);
}

/// A 256-bit carry-less product, not yet reduced.
typedef struct {
    __m128i low, high;
} wide;

/// The carry-less product of `a` and `b` (byte-reversed field elements).
GCM_TARGET static inline wide carryless_product(__m128i a, __m128i b) {
    __m128i middle = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x10), _mm_clmulepi64_si128(a, b, 0x01));
    return (wide){
        .low = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x00), _mm_slli_si128(middle, 8)),
        .high = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x11), _mm_srli_si128(middle, 8)),
    };
}

/// `a ^ b`: products are summed before one reduction.
GCM_TARGET static inline wide wide_xor(wide a, wide b) {
    return (wide){.low = _mm_xor_si128(a.low, b.low), .high = _mm_xor_si128(a.high, b.high)};
}

/// A product reduced into GHASH's field GF(2^128) mod x^128 + x^7 + x^2 + x + 1. It is first
/// shifted left by one bit (GHASH's bits are reflected, so the product of reflected operands
/// comes out one bit short), then reduced in two phases of shifts. Both steps are linear, so
/// a sum of products reduces to the sum of their reductions.
GCM_TARGET static inline __m128i reduce(wide product) {
    __m128i low = product.low, high = product.high;
    // high:low <<= 1, each 32-bit lane's top bit carried into the next lane up.
    __m128i low_carries = _mm_srli_epi32(low, 31);
    __m128i high_carries = _mm_srli_epi32(high, 31);
    __m128i across = _mm_srli_si128(low_carries, 12);
    low = _mm_or_si128(_mm_slli_epi32(low, 1), _mm_slli_si128(low_carries, 4));
    high = _mm_or_si128(_mm_or_si128(_mm_slli_epi32(high, 1), _mm_slli_si128(high_carries, 4)), across);

    // First phase: the multiples x^127, x^126 and x^121 of the low half.
    __m128i folded = _mm_xor_si128(_mm_xor_si128(_mm_slli_epi32(low, 31), _mm_slli_epi32(low, 30)),
                                   _mm_slli_epi32(low, 25));
    __m128i spill = _mm_srli_si128(folded, 4);
    low = _mm_xor_si128(low, _mm_slli_si128(folded, 12));
    // Second phase: the shifts right by 1, 2 and 7, and what the first phase spilled.
    __m128i second = _mm_xor_si128(_mm_xor_si128(_mm_srli_epi32(low, 1), _mm_srli_epi32(low, 2)),
                                   _mm_srli_epi32(low, 7));
    second = _mm_xor_si128(second, spill);
    return _mm_xor_si128(high, _mm_xor_si128(low, second));
}

/// `a · b` in GHASH's field.
GCM_TARGET static inline __m128i field_multiply(__m128i a, __m128i b) { return reduce(carryless_product(a, b)); }

GCM_TARGET void strata_gcm_expand(strata_gcm_key *expanded, const uint8_t *key) {
    __m128i keys[15];
    keys[0] = _mm_loadu_si128((const __m128i *)key);
    keys[1] = _mm_loadu_si128((const __m128i *)(key + 16));
    // Each round key from the two before it: an even one from the rotated, substituted last
    // word and the round constant, an odd one from the substituted last word alone. The
    // constant is XORed in here (the assist instruction takes it only as an immediate).
    uint32_t round_constant = 1;
    for (int i = 2; i < 15; i += 2, round_constant <<= 1) {
        __m128i rotated = _mm_shuffle_epi32(_mm_aeskeygenassist_si128(keys[i - 1], 0), 0xff);
        keys[i] = schedule_step(keys[i - 2], _mm_xor_si128(rotated, _mm_set1_epi32((int)round_constant)));
        if (i + 1 < 15) keys[i + 1] = schedule_step(keys[i - 1], _mm_shuffle_epi32(_mm_aeskeygenassist_si128(keys[i], 0), 0xaa));
    }
    for (int i = 0; i < 15; i++) _mm_store_si128((__m128i *)expanded->round_keys[i], keys[i]);
    __m128i h = _mm_setzero_si128();
    encrypt_blocks(keys, &h, 1);
    __m128i power = reversed(h);
    for (int i = 0; i < SHORT_BLOCKS; i++) {
        _mm_store_si128((__m128i *)expanded->hash_powers[i], power);
        power = field_multiply(power, reversed(h));
    }
    OPENSSL_cleanse(keys, sizeof keys);
}

/// A GHASH in progress over a stream that arrives in pieces: the running value and the
/// powers H, H^2, ..., H^LANES (byte-reversed), and the bytes of a block not yet whole.
typedef struct {
    __m128i value;
    const __m128i *powers;
    uint8_t partial[16];
    size_t filled;
} ghash;

/// Hashes `n` (1 to LANES) whole blocks (in the stream's byte order) with one reduction:
/// Horner's rule unrolled, Y' = (Y + X1)·H^n + X2·H^(n-1) + ... + Xn·H.
GCM_TARGET static inline void ghash_blocks(ghash *g, const __m128i *blocks, int n) {
    wide sum = carryless_product(_mm_xor_si128(g->value, reversed(blocks[0])), g->powers[n - 1]);
    for (int i = 1; i < n; i++) sum = wide_xor(sum, carryless_product(reversed(blocks[i]), g->powers[n - 1 - i]));
    g->value = reduce(sum);
}

/// Hashes one whole block (in the stream's byte order).
GCM_TARGET static inline void ghash_block(ghash *g, __m128i block) { ghash_blocks(g, &block, 1); }

/// Hashes `count` bytes of `bytes`, keeping a trailing part block for the next piece.
GCM_TARGET static void ghash_absorb(ghash *g, const uint8_t *bytes, size_t count) {
    if (count == 0) return;
    if (g->filled > 0) {
        size_t taken = 16 - g->filled < count ? 16 - g->filled : count;
        memcpy(g->partial + g->filled, bytes, taken);
        g->filled += taken;
        bytes += taken;
        count -= taken;
        if (g->filled < 16) return;
        ghash_block(g, _mm_loadu_si128((const __m128i *)g->partial));
        g->filled = 0;
    }
    for (; count >= 16; bytes += 16, count -= 16) ghash_block(g, _mm_loadu_si128((const __m128i *)bytes));
    memcpy(g->partial, bytes, count);
    g->filled = count;
}

/// Ends a section of the stream (the additional data): a part block is hashed zero-padded.
GCM_TARGET static void ghash_pad(ghash *g) {
    if (g->filled == 0) return;
    memset(g->partial + g->filled, 0, 16 - g->filled);
    ghash_block(g, _mm_loadu_si128((const __m128i *)g->partial));
    g->filled = 0;
}

/// The counter block `nonce ‖ counter` (the counter big-endian).
GCM_TARGET static inline __m128i counter_block(__m128i nonce, uint32_t counter) {
    return _mm_insert_epi32(nonce, (int)__builtin_bswap32(counter), 3);
}

/// The 12-byte nonce at `bytes` in a block, its counter word zero.
GCM_TARGET static inline __m128i nonce_block(const uint8_t *bytes) {
    uint8_t block[16] = {0};
    memcpy(block, bytes, 12);
    return _mm_loadu_si128((const __m128i *)block);
}

/// The lengths block closing GHASH (the additional data's and the ciphertext's, in bits),
/// byte-reversed: the ciphertext's length in the low 64 bits, the additional data's in the
/// high ones.
GCM_TARGET static inline __m128i lengths_block(size_t aad_count, size_t count) {
    return _mm_set_epi64x((long long)(aad_count * 8), (long long)(count * 8));
}

/// Which way `ctr_pass` runs: the hash reads its output (sealing) or its input (opening).
typedef enum { SEALING, OPENING } direction;

/// XORs the key stream `stream` (`blocks` whole blocks, at most LANES) into the first
/// `count` bytes at `in`, writing `out`, and hashes the ciphertext side into `g`.
GCM_TARGET static inline void xor_and_hash(ghash *g, const __m128i *stream, int blocks, const uint8_t *in,
                                           size_t count, uint8_t *out, direction way) {
    __m128i ciphertext[LANES];
    for (int i = 0; i < blocks; i++) {
        size_t offset = 16 * (size_t)i;
        if (count - offset >= 16) {
            __m128i input = _mm_loadu_si128((const __m128i *)(in + offset));
            __m128i output = _mm_xor_si128(input, stream[i]);
            _mm_storeu_si128((__m128i *)(out + offset), output);
            ciphertext[i] = way == SEALING ? output : input;
            continue;
        }
        // The last block, short: through a zero-padded copy.
        size_t length = count - offset;
        uint8_t padded[16] = {0};
        memcpy(padded, in + offset, length);
        __m128i input = _mm_loadu_si128((const __m128i *)padded);
        __m128i output = _mm_xor_si128(input, stream[i]);
        _mm_storeu_si128((__m128i *)padded, output);
        memcpy(out + offset, padded, length);
        // The ciphertext is hashed zero-padded: the output's bytes past `length` are key stream.
        memset(padded + length, 0, 16 - length);
        ciphertext[i] = way == SEALING ? _mm_loadu_si128((const __m128i *)padded) : input;
    }
    if (blocks > 0) ghash_blocks(g, ciphertext, blocks);
}

/// The CTR pass shared by sealing and opening: `count` bytes of `in` XORed with the key
/// stream into `out`, the ciphertext side hashed into `g`; returns the tag's mask AES(J0).
/// Blocks are encrypted LANES at a time (a fixed width, so they stay in registers), the
/// first batch one wider for J0 (counter 1); lanes past the data encrypt counters no record
/// uses, which costs less than a variable width.
GCM_TARGET static __m128i ctr_pass(const strata_gcm_key *key, const uint8_t *nonce_bytes, ghash *g,
                                   const uint8_t *in, size_t count, uint8_t *out, direction way) {
    const __m128i *keys = (const __m128i *)key->round_keys;
    __m128i nonce = nonce_block(nonce_bytes);

    __m128i first[LANES + 1];
    for (int i = 0; i <= LANES; i++) first[i] = counter_block(nonce, (uint32_t)i + 1);
    encrypt_blocks(keys, first, LANES + 1);
    size_t chunk = count < 16 * LANES ? count : 16 * LANES;
    xor_and_hash(g, first + 1, (int)((chunk + 15) / 16), in, chunk, out, way);

    uint32_t next_counter = LANES + 2;
    for (size_t done = chunk; done < count; done += chunk, next_counter += LANES) {
        chunk = count - done < 16 * LANES ? count - done : 16 * LANES;
        __m128i stream[LANES];
        for (int i = 0; i < LANES; i++) stream[i] = counter_block(nonce, next_counter + (uint32_t)i);
        encrypt_blocks(keys, stream, LANES);
        xor_and_hash(g, stream, (int)((chunk + 15) / 16), in + done, chunk, out + done, way);
    }
    return first[0];
}

/// The tag: GHASH closed by the lengths block (additional data, ciphertext, in bits), masked.
GCM_TARGET static __m128i finish(ghash *g, size_t aad_count, size_t count, __m128i mask) {
    g->value = field_multiply(_mm_xor_si128(g->value, lengths_block(aad_count, count)), g->powers[0]);
    return _mm_xor_si128(reversed(g->value), mask);
}

/// GHASH started over the additional data `aad1 ‖ aad2`, padded.
GCM_TARGET static ghash ghash_of_aad(const strata_gcm_key *key, const void *aad1, size_t n1, const void *aad2, size_t n2) {
    ghash g = {.value = _mm_setzero_si128(), .powers = (const __m128i *)key->hash_powers, .filled = 0};
    if (n1 + n2 <= 16 * LANES) {
        // Short (a database name and a record key): joined and zero-padded in one buffer.
        __m128i joined[LANES] = {0};
        if (n1 > 0) memcpy(joined, aad1, n1);
        if (n2 > 0) memcpy((uint8_t *)joined + n1, aad2, n2);
        if (n1 + n2 > 0) ghash_blocks(&g, joined, (int)((n1 + n2 + 15) / 16));
        return g;
    }
    ghash_absorb(&g, aad1, n1);
    ghash_absorb(&g, aad2, n2);
    ghash_pad(&g);
    return g;
}

/// A short record laid out for one GHASH reduction: its additional data then its ciphertext
/// (or, when sealing, its plaintext until encrypted in place), each zero-padded to whole
/// blocks, in one buffer, and the lengths block.
typedef struct {
    __m128i blocks[SHORT_BLOCKS];
    /// The first block of the record's text, and the blocks of text.
    int text, text_blocks;
    /// The lengths block (`lengths_block`).
    __m128i lengths;
} short_record;

/// Whether a record of `count` bytes with `aad_count` bytes of additional data is short:
/// its blocks and the lengths block fit `SHORT_BLOCKS`.
static inline int is_short(size_t aad_count, size_t count) {
    return aad_count <= 16 * SHORT_BLOCKS && count <= 16 * SHORT_BLOCKS
        && (aad_count + 15) / 16 + (count + 15) / 16 + 1 <= SHORT_BLOCKS;
}

/// Copies the 16 bytes at `from` to `to`.
GCM_TARGET static inline void copy_block(uint8_t *to, const uint8_t *from) {
    _mm_storeu_si128((__m128i *)to, _mm_loadu_si128((const __m128i *)from));
}

/// Copies the first and the last `width` bytes of `n` (`width` ≤ `n` ≤ 2·`width`, a constant
/// once inlined, so each copy is one move), both read before either is written.
__attribute__((always_inline)) static inline void copy_ends(uint8_t *to, const uint8_t *from, size_t n, size_t width) {
    uint64_t head = 0, tail = 0;
    memcpy(&head, from, width);
    memcpy(&tail, from + n - width, width);
    memcpy(to, &head, width);
    memcpy(to + n - width, &tail, width);
}

/// Copies `n` bytes, at most a short record's 128, without a call to `memcpy` (nor a loop the
/// compiler would make one): the first and the last 64, 32, 16, 8 or 4 bytes, overlapping in
/// the middle; reads and writes only `[0, n)`.
GCM_TARGET static inline void copy_short(uint8_t *to, const uint8_t *from, size_t n) {
    if (n >= 32) {
        size_t half = n >= 64 ? 64 : 32;
        for (size_t i = 0; i < half; i += 16) {
            copy_block(to + i, from + i);
            copy_block(to + n - half + i, from + n - half + i);
        }
    } else if (n >= 16) {
        copy_block(to, from);
        copy_block(to + n - 16, from + n - 16);
    } else if (n >= 8) {
        copy_ends(to, from, n, 8);
    } else if (n >= 4) {
        copy_ends(to, from, n, 4);
    } else if (n > 0) {
        to[0] = from[0];
        to[n / 2] = from[n / 2];
        to[n - 1] = from[n - 1];
    }
}

/// Lays out a short record: `aad1 ‖ aad2`, padded, then `count` bytes of `text`, padded.
GCM_TARGET __attribute__((always_inline)) static inline void lay_out(short_record *r, const void *aad1, size_t n1, const void *aad2, size_t n2,
                                      const uint8_t *text, size_t count) {
    memset(r->blocks, 0, sizeof r->blocks);
    uint8_t *bytes = (uint8_t *)r->blocks;
    copy_short(bytes, aad1, n1);
    copy_short(bytes + n1, aad2, n2);
    r->text = (int)((n1 + n2 + 15) / 16);
    r->text_blocks = (int)((count + 15) / 16);
    copy_short(bytes + 16 * r->text, text, count);
    r->lengths = lengths_block(n1 + n2, count);
}

/// GHASH of a laid-out record whose text blocks hold ciphertext: Y = X1·H^n ⊕ ... ⊕ Xn·H over
/// its n blocks (the lengths block last), each product independent of the others and of AES,
/// summed before one reduction.
GCM_TARGET static inline __m128i ghash_short(const strata_gcm_key *key, const short_record *r) {
    const __m128i *powers = (const __m128i *)key->hash_powers;
    int n = r->text + r->text_blocks + 1;
    wide sum = carryless_product(r->lengths, powers[0]);
    for (int i = 0; i < n - 1; i++) sum = wide_xor(sum, carryless_product(reversed(r->blocks[i]), powers[n - 1 - i]));
    return reduce(sum);
}

/// The key stream of a short record under `nonce` (its counter word any): AES of J0 (the
/// tag's mask) and of the counters after it, `width` blocks in all (a constant once inlined:
/// the blocks stay in registers), into `stream`.
GCM_TARGET __attribute__((always_inline)) static inline void nonce_stream(const strata_gcm_key *key, __m128i nonce,
                                                                         __m128i *stream, int width) {
    for (int i = 0; i < width; i++) stream[i] = counter_block(nonce, (uint32_t)i + 1);
    encrypt_blocks((const __m128i *)key->round_keys, stream, width);
}

/// `nonce_stream` for the nonce at `nonce_bytes`.
GCM_TARGET __attribute__((always_inline)) static inline void short_stream(const strata_gcm_key *key, const uint8_t *nonce_bytes,
                                                                         __m128i *stream, int width) {
    nonce_stream(key, nonce_block(nonce_bytes), stream, width);
}

/// XORs the key stream (`stream[1...]`) into the record's text blocks, in place.
GCM_TARGET static inline void apply_stream(short_record *r, const __m128i *stream) {
    for (int i = 0; i < r->text_blocks; i++) r->blocks[r->text + i] = _mm_xor_si128(r->blocks[r->text + i], stream[i + 1]);
}

/// The key stream for `r`'s text: J0 and one counter per text block, in a width fixed per
/// case (rows are mostly one to four blocks), else as many as `SHORT_BLOCKS` allows.
GCM_TARGET __attribute__((always_inline)) static inline void stream_for(const strata_gcm_key *key, const uint8_t *nonce, const short_record *r,
                                         __m128i stream[SHORT_BLOCKS]) {
    switch (r->text_blocks) {
    case 0: short_stream(key, nonce, stream, 1); break;
    case 1: short_stream(key, nonce, stream, 2); break;
    case 2: short_stream(key, nonce, stream, 3); break;
    case 3: short_stream(key, nonce, stream, 4); break;
    case 4: short_stream(key, nonce, stream, 5); break;
    default: short_stream(key, nonce, stream, SHORT_BLOCKS); break;
    }
}

/// `strata_gcm_seal` for a short record (`is_short`).
GCM_TARGET static void seal_short(const strata_gcm_key *key, const uint8_t *nonce, const void *aad1, size_t n1,
                                  const void *aad2, size_t n2, const uint8_t *plain, size_t count, uint8_t *out,
                                  uint8_t *tag) {
    short_record r;
    lay_out(&r, aad1, n1, aad2, n2, plain, count);
    __m128i stream[SHORT_BLOCKS];
    stream_for(key, nonce, &r, stream);
    apply_stream(&r, stream);
    // The padding of the last block must hash as zeros, not key stream.
    uint8_t *text = (uint8_t *)(r.blocks + r.text);
    if (count % 16 != 0) memset(text + count, 0, 16 - count % 16);
    copy_short(out, text, count);
    _mm_storeu_si128((__m128i *)tag, _mm_xor_si128(reversed(ghash_short(key, &r)), stream[0]));
}

/// `strata_gcm_open` for a short record (`is_short`): the hash reads the ciphertext as it
/// came, so it runs alongside the AES of the key stream.
GCM_TARGET static int open_short(const strata_gcm_key *key, const uint8_t *nonce, const void *aad1, size_t n1,
                                 const void *aad2, size_t n2, const uint8_t *sealed, size_t count, const uint8_t *tag,
                                 uint8_t *out) {
    short_record r;
    lay_out(&r, aad1, n1, aad2, n2, sealed, count);
    __m128i stream[SHORT_BLOCKS];
    stream_for(key, nonce, &r, stream);
    __m128i expected = _mm_xor_si128(reversed(ghash_short(key, &r)), stream[0]);
    __m128i same = _mm_cmpeq_epi8(expected, _mm_loadu_si128((const __m128i *)tag));
    if (_mm_movemask_epi8(same) != 0xffff) {
        if (count > 0) OPENSSL_cleanse(out, count);
        return -1;
    }
    apply_stream(&r, stream);
    copy_short(out, (const uint8_t *)(r.blocks + r.text), count);
    return 0;
}

int strata_gcm_prepare_run(strata_gcm_run *run, const void *aad1, size_t n1) {
    const size_t key_bytes = 8;
    // At least one block of text and the lengths block must fit beside the additional data.
    if (n1 + key_bytes > 16 * (SHORT_BLOCKS - 2)) return 0;
    memset(run, 0, sizeof *run);
    if (n1 > 0) memcpy(run->blocks, aad1, n1);
    run->aad_count = n1 + key_bytes;
    run->block_count = (int)((run->aad_count + 15) / 16);
    run->key_block = (int)(n1 / 16);
    // Byte j of the key's block takes key byte j - offset; byte j of the next, key byte
    // 16 - offset + j; a shuffle index with its top bit set gives a zero byte.
    int offset = (int)(n1 % 16);
    for (int j = 0; j < 16; j++) {
        int first = j - offset, second = 16 - offset + j;
        run->key_shuffles[0][j] = first >= 0 && first < (int)key_bytes ? (uint8_t)first : 0x80;
        run->key_shuffles[1][j] = second < (int)key_bytes ? (uint8_t)second : 0x80;
    }
    return 1;
}

/// 16 bytes of ones then 16 of zeros: the 16 bytes from `16 - n` keep a block's first `n`.
static const uint8_t keep_first[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0xff, 0xff};

/// Whether a record of `count` bytes is one a prepared run opens in place: its text, the
/// run's additional data and the lengths block within `SHORT_BLOCKS`; its text blocks, or 0.
static inline int in_run_blocks(const strata_gcm_run *run, size_t count) {
    int text_blocks = (int)((count + 15) / 16);
    return count > 0 && run->block_count + text_blocks + 1 <= SHORT_BLOCKS ? text_blocks : 0;
}

/// A run's record read in place for opening: its ciphertext blocks (the last masked to its
/// bytes: the tag after it makes the 16-byte read safe), and its GHASH (byte order restored)
/// over the run's additional data with the record key's bytes moved into place, the
/// ciphertext and the lengths, each product independent, summed before one reduction.
typedef struct {
    __m128i text[SHORT_BLOCKS];
    __m128i last_mask;
    __m128i hash;
} read_record;

GCM_TARGET static inline void read_in_run(const strata_gcm_key *key, const strata_gcm_run *run, const uint8_t *record_key,
                                          const uint8_t *sealed, size_t count, int text_blocks, read_record *r) {
    const __m128i *powers = (const __m128i *)key->hash_powers;
    int n = run->block_count + text_blocks + 1;
    __m128i record_key_bytes = _mm_loadl_epi64((const __m128i *)record_key);
    __m128i key_parts[2] = {_mm_shuffle_epi8(record_key_bytes, _mm_load_si128((const __m128i *)run->key_shuffles[0])),
                            _mm_shuffle_epi8(record_key_bytes, _mm_load_si128((const __m128i *)run->key_shuffles[1]))};
    wide sum = carryless_product(lengths_block(run->aad_count, count), powers[0]);
    for (int i = 0; i < run->block_count; i++) {
        __m128i block = _mm_load_si128((const __m128i *)run->blocks[i]);
        int part = i - run->key_block;
        if (part == 0 || part == 1) block = _mm_xor_si128(block, key_parts[part]);
        sum = wide_xor(sum, carryless_product(reversed(block), powers[n - 1 - i]));
    }
    size_t last_bytes = count - 16 * (size_t)(text_blocks - 1);
    r->last_mask = _mm_loadu_si128((const __m128i *)(keep_first + 16 - last_bytes));
    for (int j = 0; j < text_blocks; j++) {
        r->text[j] = _mm_loadu_si128((const __m128i *)(sealed + 16 * j));
        if (j == text_blocks - 1) r->text[j] = _mm_and_si128(r->text[j], r->last_mask);
        sum = wide_xor(sum, carryless_product(reversed(r->text[j]), powers[n - 1 - run->block_count - j]));
    }
    r->hash = reversed(reduce(sum));
}

/// Whether `r`'s tag (at `tag`) matches its hash masked with `mask`, AES(J0).
GCM_TARGET static inline int authentic(const read_record *r, __m128i mask, const uint8_t *tag) {
    __m128i same = _mm_cmpeq_epi8(_mm_xor_si128(r->hash, mask), _mm_loadu_si128((const __m128i *)tag));
    return _mm_movemask_epi8(same) == 0xffff;
}

/// Writes `r`'s plaintext, its text XORed with `stream`, as whole blocks (zeros past its end).
GCM_TARGET static inline void write_plain(const read_record *r, const __m128i *stream, int text_blocks, uint8_t *out) {
    for (int j = 0; j < text_blocks; j++) {
        __m128i plain = _mm_xor_si128(r->text[j], stream[j]);
        if (j == text_blocks - 1) plain = _mm_and_si128(plain, r->last_mask);
        _mm_storeu_si128((__m128i *)(out + 16 * j), plain);
    }
}

GCM_TARGET int strata_gcm_open_in_run(const strata_gcm_key *key, const strata_gcm_run *run, const uint8_t *record_key,
                                      const uint8_t *record, size_t count, uint8_t *out, size_t room) {
    int text_blocks = in_run_blocks(run, count);
    if (text_blocks == 0 || room < 16 * (size_t)text_blocks) return 1;
    read_record r;
    read_in_run(key, run, record_key, record + 12, count, text_blocks, &r);
    // The key stream from the nonce read in place (the counter word replaces the 4 bytes
    // after it), one block wider than the text for J0.
    __m128i nonce = _mm_loadu_si128((const __m128i *)record);
    __m128i stream[SHORT_BLOCKS];
    switch (text_blocks) {
    case 1: nonce_stream(key, nonce, stream, 2); break;
    case 2: nonce_stream(key, nonce, stream, 3); break;
    case 3: nonce_stream(key, nonce, stream, 4); break;
    case 4: nonce_stream(key, nonce, stream, 5); break;
    default: nonce_stream(key, nonce, stream, SHORT_BLOCKS); break;
    }
    if (!authentic(&r, stream[0], record + 12 + count)) return -1;
    write_plain(&r, stream + 1, text_blocks, out);
    return 0;
}

GCM_TARGET void strata_gcm_seal(const strata_gcm_key *key, const uint8_t *nonce, const void *aad1, size_t n1,
                                const void *aad2, size_t n2, const uint8_t *plain, size_t count, uint8_t *out,
                                uint8_t *tag) {
    if (is_short(n1 + n2, count)) return seal_short(key, nonce, aad1, n1, aad2, n2, plain, count, out, tag);
    ghash g = ghash_of_aad(key, aad1, n1, aad2, n2);
    __m128i mask = ctr_pass(key, nonce, &g, plain, count, out, SEALING);
    _mm_storeu_si128((__m128i *)tag, finish(&g, n1 + n2, count, mask));
}

GCM_TARGET int strata_gcm_open(const strata_gcm_key *key, const uint8_t *nonce, const void *aad1, size_t n1,
                               const void *aad2, size_t n2, const uint8_t *sealed, size_t count, const uint8_t *tag,
                               uint8_t *out) {
    if (is_short(n1 + n2, count)) return open_short(key, nonce, aad1, n1, aad2, n2, sealed, count, tag, out);
    ghash g = ghash_of_aad(key, aad1, n1, aad2, n2);
    __m128i mask = ctr_pass(key, nonce, &g, sealed, count, out, OPENING);
    // Compared in constant time: all 16 bytes at once, one test of the whole result.
    __m128i expected = finish(&g, n1 + n2, count, mask);
    __m128i same = _mm_cmpeq_epi8(expected, _mm_loadu_si128((const __m128i *)tag));
    if (_mm_movemask_epi8(same) == 0xffff) return 0;
    if (count > 0) OPENSSL_cleanse(out, count);
    return -1;
}

#else

int strata_gcm_supported(void) { return 0; }
int strata_gcm_prepare_run(strata_gcm_run *run, const void *aad1, size_t aad1_count) {
    (void)run; (void)aad1; (void)aad1_count;
    return 0;
}
int strata_gcm_open_in_run(const strata_gcm_key *key, const strata_gcm_run *run, const uint8_t *record_key,
                           const uint8_t *record, size_t count, uint8_t *out, size_t room) {
    (void)key; (void)run; (void)record_key; (void)record; (void)count; (void)out; (void)room;
    return 1;
}
void strata_gcm_expand(strata_gcm_key *expanded, const uint8_t *key) { (void)expanded; (void)key; }
void strata_gcm_seal(const strata_gcm_key *key, const uint8_t *nonce, const void *aad1, size_t n1, const void *aad2,
                     size_t n2, const uint8_t *plain, size_t count, uint8_t *out, uint8_t *tag) {
    (void)key; (void)nonce; (void)aad1; (void)n1; (void)aad2; (void)n2; (void)plain; (void)count; (void)out; (void)tag;
}
int strata_gcm_open(const strata_gcm_key *key, const uint8_t *nonce, const void *aad1, size_t n1, const void *aad2,
                    size_t n2, const uint8_t *sealed, size_t count, const uint8_t *tag, uint8_t *out) {
    (void)key; (void)nonce; (void)aad1; (void)n1; (void)aad2; (void)n2; (void)sealed; (void)count; (void)tag; (void)out;
    return -1;
}

#endif
