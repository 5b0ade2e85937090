// LMDB's byte order for keys and duplicate values, computed faster for the 8-byte big-endian
// object keys most of Strata's records are found by.
#ifndef STRATA_KEY_ORDER_H
#define STRATA_KEY_ORDER_H

#include <lmdb.h>

/// Orders `a` and `b` exactly as LMDB's default comparison does (their bytes compared as
/// unsigned, the shorter first when one is a prefix of the other), eight bytes at a time as
/// big-endian integers in registers: two 8-byte object keys in one step. Since the order is
/// LMDB's own, a file is sorted the same whether or not a program sets it (`mdb_dump`, older
/// Strata): set on a database, it only spares a `memcmp` call per comparison.
int strata_key_compare(const MDB_val *a, const MDB_val *b);

#endif
