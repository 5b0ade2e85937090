// LMDB calls that survive damage LMDB itself does not check: a fault (SIGSEGV, SIGBUS) or
// one of LMDB's own assertions inside a guarded call ends that call with STRATA_LMDB_FAULT
// instead of ending the process (docs/RELIABILITY.md, "Damaged files").
//
// Every call that reads pages is guarded, writes and commits too (a write descends the
// damaged tree it changes). Leaving one of them early abandons what it was doing: a read
// transaction must not be used for LMDB calls again, only aborted; a write transaction
// cannot even be aborted safely (LMDB may have been using a cursor on its stack), so the
// Swift binding, `Transaction`, stops the process with the damage's message instead of the
// fault's or assertion's.
#ifndef STRATA_FAULT_GUARD_H
#define STRATA_FAULT_GUARD_H

#include <lmdb.h>
#include <stddef.h>
#include <stdint.h>

/// What a guarded call returns when LMDB faulted or failed an assertion on a damaged page;
/// outside LMDB's own codes (MDB_KEYEXIST..MDB_LAST_ERRCODE).
#define STRATA_LMDB_FAULT (-30420)

/// Installs the fault handlers (once per process, chaining to those installed before) and
/// makes `env`'s assertion failures end a guarded call instead of aborting.
void strata_fault_guard_install(MDB_env *env);

/// What ended this thread's last guarded call early: the signal, or LMDB's assertion text.
const char *strata_fault_guard_reason(void);

/// `mdb_get`, guarded.
int strata_guarded_get(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data);
/// `mdb_cursor_get`, guarded.
int strata_guarded_cursor_get(MDB_cursor *cursor, MDB_val *key, MDB_val *data, MDB_cursor_op op);
/// Up to `max` moves of `cursor`, guarded as one call: the first with `first` (`keys[0]`
/// holding the key of a seek), the others with `MDB_NEXT`; entry `i` lands in `keys[i]` and
/// `values[i]`. `*count` is how many moves succeeded; returns the code of the move that
/// ended the batch (`MDB_SUCCESS` after `max` moves).
int strata_guarded_cursor_batch(MDB_cursor *cursor, MDB_cursor_op first, MDB_val *keys, MDB_val *values,
                                size_t max, size_t *count);
/// `mdb_cursor_count`, guarded.
int strata_guarded_cursor_count(MDB_cursor *cursor, size_t *count);
/// `mdb_cursor_open`, guarded (it may read the database's root to refresh it); damage met
/// there is `MDB_CORRUPTED` (LMDB itself returns success).
int strata_guarded_cursor_open(MDB_txn *txn, MDB_dbi dbi, MDB_cursor **cursor);
/// `mdb_cursor_renew`, guarded, and like `strata_guarded_cursor_open` for the root's refresh:
/// a read transaction's idle cursor made new, on the same or a new snapshot.
int strata_guarded_cursor_renew(MDB_txn *txn, MDB_cursor *cursor);
/// `mdb_stat`, guarded, and like `strata_guarded_cursor_open` for the root's refresh.
int strata_guarded_stat(MDB_txn *txn, MDB_dbi dbi, MDB_stat *stat);
/// Copies `count` bytes from `source` to `target`, guarded: for memory LMDB points at that
/// may not be mapped (a damaged page's pointer), which Strata reads before trusting it.
int strata_guarded_copy(void *target, const void *source, size_t count);
/// `mdb_dbi_open`, guarded (it reads the main database's pages).
int strata_guarded_dbi_open(MDB_txn *txn, const char *name, unsigned int flags, MDB_dbi *dbi);
/// Where a write transaction's committed pages lie: the map's first byte (page 0), the bytes
/// of the file in use when the transaction began, and the page size (the system's). With a
/// zero field, or none, a write's pages are not checked.
typedef struct {
    uintptr_t map_start;
    size_t file_bytes;
    size_t page_size;
} strata_page_bounds;

/// `mdb_put` through `cursor`, a cursor of a write transaction (positioned anywhere), guarded,
/// once the pages of the file it would change are found sound (strata_write_pages.c);
/// `MDB_CORRUPTED` otherwise, with nothing written.
int strata_guarded_put(MDB_cursor *cursor, MDB_val *key, MDB_val *data, unsigned int flags,
                       const strata_page_bounds *bounds);
/// `mdb_del` through `cursor`, guarded, once the pages it would change or merge are found sound.
int strata_guarded_del(MDB_cursor *cursor, MDB_val *key, MDB_val *data, const strata_page_bounds *bounds);
/// `mdb_cursor_del`, guarded, once the pages it would change or merge are found sound.
int strata_guarded_cursor_del(MDB_cursor *cursor, unsigned int flags, const strata_page_bounds *bounds);
/// `mdb_drop`, guarded.
int strata_guarded_drop(MDB_txn *txn, MDB_dbi dbi, int del);
/// `mdb_txn_commit`, guarded.
int strata_guarded_commit(MDB_txn *txn);

#endif
