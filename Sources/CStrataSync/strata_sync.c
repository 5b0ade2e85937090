#include "strata_sync.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

uint32_t strata_load32(const uint32_t *word) { return __atomic_load_n(word, __ATOMIC_SEQ_CST); }
uint64_t strata_load64(const uint64_t *word) { return __atomic_load_n(word, __ATOMIC_SEQ_CST); }
void strata_store32(uint32_t *word, uint32_t value) { __atomic_store_n(word, value, __ATOMIC_SEQ_CST); }
void strata_store64(uint64_t *word, uint64_t value) { __atomic_store_n(word, value, __ATOMIC_SEQ_CST); }
uint32_t strata_add32(uint32_t *word, uint32_t delta) { return __atomic_fetch_add(word, delta, __ATOMIC_SEQ_CST); }

int strata_cas32(uint32_t *word, uint32_t expected, uint32_t desired) {
    return __atomic_compare_exchange_n(word, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

uint32_t strata_max32(uint32_t *word, uint32_t value) {
    uint32_t seen = __atomic_load_n(word, __ATOMIC_SEQ_CST);
    while (seen < value) {
        if (__atomic_compare_exchange_n(word, &seen, value, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return value;
    }
    return seen;
}

uint64_t strata_max64(uint64_t *word, uint64_t value) {
    uint64_t seen = __atomic_load_n(word, __ATOMIC_SEQ_CST);
    while (seen < value) {
        if (__atomic_compare_exchange_n(word, &seen, value, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return value;
    }
    return seen;
}

int strata_futex_wait(uint32_t *word, uint32_t expected, int32_t timeout_ms) {
    struct timespec timeout = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L };
    long result = syscall(SYS_futex, word, FUTEX_WAIT, expected, &timeout, NULL, 0);
    return result == 0 || (result == -1 && errno == EAGAIN) ? 0 : -1;
}

int strata_futex_wake_all(uint32_t *word) {
    return (int)syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}
