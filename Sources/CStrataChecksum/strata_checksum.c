#include "strata_checksum.h"

#include <string.h>

// The reflected Castagnoli polynomial.
#define POLYNOMIAL 0x82F63B78u

static uint32_t table[256];

__attribute__((constructor)) static void build_table(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (POLYNOMIAL & (0u - (c & 1)));
        table[i] = c;
    }
}

uint32_t strata_crc32c_portable(uint32_t crc, const void *bytes, size_t count) {
    const uint8_t *p = bytes;
    crc = ~crc;
    while (count--) crc = table[(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

#if defined(__x86_64__)
// Continues a CRC-32C over `count` bytes, 8 at a time, then the last 4, 2 and 1 (a short
// record's tail costs at most three steps, not seven).
__attribute__((target("sse4.2"))) static inline uint32_t crc32c_sse42_update(uint32_t c32, const uint8_t *p, size_t count) {
    uint64_t c = c32;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = __builtin_ia32_crc32di(c, word);
        p += 8;
        count -= 8;
    }
    c32 = (uint32_t)c;
    if (count & 4) {
        uint32_t word;
        memcpy(&word, p, 4);
        c32 = __builtin_ia32_crc32si(c32, word);
        p += 4;
    }
    if (count & 2) {
        uint16_t half;
        memcpy(&half, p, 2);
        c32 = __builtin_ia32_crc32hi(c32, half);
        p += 2;
    }
    if (count & 1) c32 = __builtin_ia32_crc32qi(c32, *p);
    return c32;
}

__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *bytes, size_t count) {
    return ~crc32c_sse42_update(~crc, bytes, count);
}

// A seal's CRC (key, then body) in one call: the same value as two `strata_crc32c` calls.
__attribute__((target("sse4.2"))) static uint32_t seal_crc_sse42(uint32_t seed, const void *key, size_t key_count,
                                                                 const void *body, size_t body_count) {
    uint32_t c = crc32c_sse42_update(~seed, key, key_count);
    return ~crc32c_sse42_update(c, body, body_count);
}

static int has_sse42;

__attribute__((constructor)) static void detect(void) {
    __builtin_cpu_init();
    has_sse42 = __builtin_cpu_supports("sse4.2");
}

uint32_t strata_crc32c(uint32_t crc, const void *bytes, size_t count) {
    return has_sse42 ? crc32c_sse42(crc, bytes, count) : strata_crc32c_portable(crc, bytes, count);
}
#else
uint32_t strata_crc32c(uint32_t crc, const void *bytes, size_t count) {
    return strata_crc32c_portable(crc, bytes, count);
}
#endif

uint32_t strata_seal_crc(uint32_t seed, const void *key, size_t key_count, const void *body, size_t body_count) {
#if defined(__x86_64__)
    if (has_sse42) return seal_crc_sse42(seed, key, key_count, body, body_count);
#endif
    return strata_crc32c_portable(strata_crc32c_portable(seed, key, key_count), body, body_count);
}
