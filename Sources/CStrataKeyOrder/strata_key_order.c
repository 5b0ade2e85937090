#include "strata_key_order.h"

#include <stdint.h>
#include <string.h>

/// The order of two 8-byte big-endian words.
static inline int word_order(const uint8_t *a, const uint8_t *b) {
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    x = __builtin_bswap64(x);
    y = __builtin_bswap64(y);
    return (x > y) - (x < y);
}

int strata_key_compare(const MDB_val *a, const MDB_val *b) {
    const uint8_t *p = a->mv_data, *q = b->mv_data;
    if (a->mv_size == 8 && b->mv_size == 8) return word_order(p, q);
    // Eight bytes at a time while both have them, then byte by byte: keys are short, and a
    // call to `memcmp` costs more than the loop.
    size_t common = a->mv_size < b->mv_size ? a->mv_size : b->mv_size;
    for (; common >= 8; common -= 8, p += 8, q += 8) {
        int order = word_order(p, q);
        if (order != 0) return order;
    }
    for (; common > 0; common--, p++, q++) {
        if (*p != *q) return *p < *q ? -1 : 1;
    }
    return (a->mv_size > b->mv_size) - (a->mv_size < b->mv_size);
}
