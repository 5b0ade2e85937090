// The checked writes of strata_write_pages.c, which strata_fault_guard.c runs guarded.
#ifndef STRATA_WRITE_PAGES_H
#define STRATA_WRITE_PAGES_H

#include "strata_fault_guard.h"

/// `mdb_put` through `cursor` (of a write transaction), positioned where the put goes and its
/// pages checked first; `MDB_CORRUPTED` for a damaged page, with nothing written.
int strata_checked_put(MDB_cursor *cursor, MDB_val *key, MDB_val *data, unsigned int flags, const strata_page_bounds *bounds);
/// `mdb_del` through `cursor`, positioned on the entry and its pages and their neighbours
/// checked first.
int strata_checked_del(MDB_cursor *cursor, MDB_val *key, MDB_val *data, const strata_page_bounds *bounds);
/// `mdb_cursor_del` once the positioned cursor's path and its neighbours are checked.
int strata_checked_cursor_del(MDB_cursor *cursor, unsigned int flags, const strata_page_bounds *bounds);

#endif
