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
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *bytes, size_t count) {
    const uint8_t *p = bytes;
    uint64_t c = ~crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = __builtin_ia32_crc32di(c, word);
        p += 8;
        count -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (count--) c32 = __builtin_ia32_crc32qi(c32, *p++);
    return ~c32;
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
    return strata_crc32c(strata_crc32c(seed, key, key_count), body, body_count);
}
