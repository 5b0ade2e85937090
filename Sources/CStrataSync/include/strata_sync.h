// Wrappers for what Swift cannot call directly: the futex system call and atomic operations
// on words in memory shared between processes (Strata's `.lock` file mapping). No logic.
#ifndef STRATA_SYNC_H
#define STRATA_SYNC_H

#include <stdint.h>

/// Atomically loads a 32-bit word (sequentially consistent).
uint32_t strata_load32(const uint32_t *word);
/// Atomically loads a 64-bit word (sequentially consistent).
uint64_t strata_load64(const uint64_t *word);
/// Atomically stores a 32-bit word (sequentially consistent).
void strata_store32(uint32_t *word, uint32_t value);
/// Atomically stores a 64-bit word (sequentially consistent).
void strata_store64(uint64_t *word, uint64_t value);
/// Atomically adds to a 32-bit word; returns the previous value.
uint32_t strata_add32(uint32_t *word, uint32_t delta);
/// Atomically replaces `expected` by `desired`; returns whether it did.
int strata_cas32(uint32_t *word, uint32_t expected, uint32_t desired);
/// Atomically raises a 32-bit word to `value` if it is lower; returns the value it holds after.
uint32_t strata_max32(uint32_t *word, uint32_t value);
/// Atomically raises a 64-bit word to `value` if it is lower; returns the value it holds after.
uint64_t strata_max64(uint64_t *word, uint64_t value);

/// Sleeps while `*word == expected`, at most `timeout_ms` milliseconds (a shared, not
/// process-private, futex). Returns 0 when woken or the word differed, -1 with errno set
/// otherwise (ETIMEDOUT, EINTR).
int strata_futex_wait(uint32_t *word, uint32_t expected, int32_t timeout_ms);
/// Wakes every waiter on `word`, in any process mapping it. Returns the number woken.
int strata_futex_wake_all(uint32_t *word);

#endif
