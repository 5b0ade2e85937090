// Checks of the pages a write changes, before LMDB changes them (docs/RELIABILITY.md,
// "Damaged files"). LMDB 0.9 trusts a page's header and nodes when a write copies the page
// (`mdb_page_touch` copies the bytes its header says are in use), adds a node to it or
// splits it: a damaged page can make it write past the 4 KiB copy it made in memory, which
// corrupts the process's heap. A fault guard cannot catch that. So a write first positions
// a cursor where it will write, then checks every page of the file on the cursor's path
// (and, for a delete, the pages beside them, which a rebalance may merge), and writes
// through that cursor only when they are sound.
//
// The path is read from LMDB 0.9's cursor, whose layout `struct lmdb09_cursor` mirrors; the
// mirror is confirmed on each cursor (its transaction and database, read through it, are
// what LMDB's own accessors say) before it is trusted, and without it the write goes ahead
// unchecked.
#include "strata_write_pages.h"

#include <stdint.h>
#include <string.h>

#if MDB_VERSION_MAJOR == 0 && MDB_VERSION_MINOR == 9
#define STRATA_KNOWS_CURSOR_LAYOUT 1
#else
#define STRATA_KNOWS_CURSOR_LAYOUT 0
#endif

enum {
    header_size = 16,
    node_header_size = 8,
    page_branch = 0x01,
    page_leaf = 0x02,
    page_overflow = 0x04,
    page_meta = 0x08,
    page_leaf2 = 0x20,
    page_subpage = 0x40,
    node_big_data = 0x01,
    node_sub_database = 0x02,
    node_duplicates = 0x04,
    sub_database_size = 48,
    cursor_initialized = 0x01,
    cursor_stack_size = 32,
};

/// LMDB 0.9's `struct MDB_cursor` (mdb.c): the fields before the page stack, then the stack.
struct lmdb09_cursor {
    void *next;
    void *backup;
    struct lmdb09_cursor *xcursor;  // an `MDB_xcursor`, whose first member is its cursor
    MDB_txn *txn;
    MDB_dbi dbi;
    const uint8_t *db;  // `MDB_db`: `md_pad` (a LEAF2 page's key size) is its first field
    void *dbx;
    unsigned char *dbflag;
    unsigned short snum;
    unsigned short top;
    unsigned int flags;
    const uint8_t *pages[cursor_stack_size];
    uint16_t indices[cursor_stack_size];
};

static uint16_t u16(const uint8_t *p) {
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint64_t u64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/// Whether a page's (or sub-page's) free space, from `lower` (the end of its node pointers)
/// to `upper` (the start of its nodes), lies within its `size` bytes after its header.
static int free_space_is_sound(uint16_t lower, uint16_t upper, size_t size) {
    return lower >= header_size && lower <= upper && upper <= size && (lower - header_size) % 2 == 0;
}

/// Whether `page` is one of the file's pages committed before the transaction began (a page
/// the write has not copied yet); pages LMDB made or copied in this transaction are its own.
static int is_committed(const uint8_t *page, const strata_page_bounds *bounds) {
    return (uintptr_t)page - bounds->map_start < bounds->file_bytes;
}

static int subpage_is_sound(const uint8_t *sub, size_t size);

/// Whether node `index` of the page (or sub-page) at `base`, `size` bytes, whose free space
/// ends at `upper`, lies within it, and in a leaf, its data too (a node's small set of
/// duplicates is a sub-page, checked the same way).
static int node_is_sound(const uint8_t *base, size_t size, size_t index, size_t upper, int leaf, int in_subpage) {
    size_t offset = u16(base + header_size + 2 * index);
    if (offset < upper || offset + node_header_size > size) return 0;
    const uint8_t *node = base + offset;
    size_t end = offset + node_header_size + u16(node + 6);
    if (end > size) return 0;
    if (!leaf) return 1;  // a branch node's flags and size hold its child's page number
    uint16_t flags = u16(node + 4);
    size_t data_size = (size_t)u16(node) | (size_t)u16(node + 2) << 16;
    if (in_subpage && flags != 0) return 0;
    if (flags & node_big_data) return end + sizeof(uint64_t) <= size;  // the first overflow page's number
    if ((flags & node_sub_database) && data_size != sub_database_size) return 0;
    if (end + data_size > size) return 0;
    return !(flags & node_duplicates) || (flags & node_sub_database) || subpage_is_sound(node + node_header_size + u16(node + 6), data_size);
}

static int nodes_are_sound(const uint8_t *base, size_t size, size_t count, size_t upper, int leaf, int in_subpage) {
    for (size_t i = 0; i < count; i++) {
        if (!node_is_sound(base, size, i, upper, leaf, in_subpage)) return 0;
    }
    return 1;
}

/// Whether `sub`, the sub-page of duplicates a leaf node holds in its `size` bytes, is sound.
static int subpage_is_sound(const uint8_t *sub, size_t size) {
    if (size < header_size) return 0;
    uint16_t flags = u16(sub + 10), lower = u16(sub + 12), upper = u16(sub + 14);
    if ((flags & (page_leaf | page_subpage | page_branch | page_overflow | page_meta)) != (page_leaf | page_subpage)) return 0;
    if (!free_space_is_sound(lower, upper, size)) return 0;
    size_t count = (lower - header_size) / 2;
    if (flags & page_leaf2) return header_size + count * u16(sub + 8) <= size;
    return nodes_are_sound(sub, size, count, upper, 1, 1);
}

/// Whether `page`, a page of the file committed before the transaction, is where its
/// header's number puts it and is a branch or leaf page whose free space lies within it,
/// with its node `index` sound, or with `whole`, every node (a LEAF2 page of fixed-size
/// duplicates, `leaf2_key_size` bytes each, has its keys within it).
static int committed_page_is_sound(const uint8_t *page, const strata_page_bounds *bounds, uint32_t leaf2_key_size,
                                   size_t index, int whole) {
    size_t page_size = bounds->page_size;
    if (u64(page) * page_size != (uintptr_t)page - bounds->map_start) return 0;
    uint16_t flags = u16(page + 10), lower = u16(page + 12), upper = u16(page + 14);
    uint16_t kind = flags & (page_branch | page_leaf | page_overflow | page_meta | page_subpage);
    if (kind != page_branch && kind != page_leaf) return 0;
    if (!free_space_is_sound(lower, upper, page_size)) return 0;
    size_t count = (lower - header_size) / 2;
    if (kind == page_branch && count == 0) return 0;
    if (flags & page_leaf2) return kind == page_leaf && leaf2_key_size > 0 && header_size + count * leaf2_key_size <= page_size;
    if (whole) return nodes_are_sound(page, page_size, count, upper, kind == page_leaf, 0);
    return index >= count || node_is_sound(page, page_size, index, upper, kind == page_leaf, 0);
}

/// The page a branch node names, when it is a committed page of the file; NULL otherwise
/// (a page of this transaction's, or past the pages in use: LMDB refuses those itself).
static const uint8_t *committed_child(const uint8_t *branch, size_t index, const strata_page_bounds *bounds) {
    const uint8_t *node = branch + u16(branch + header_size + 2 * index);
    uint64_t number = (uint64_t)u16(node) | (uint64_t)u16(node + 2) << 16 | (uint64_t)u16(node + 4) << 32;
    if (number >= bounds->file_bytes / bounds->page_size) return NULL;
    return (const uint8_t *)(bounds->map_start + number * bounds->page_size);
}

/// What a write does where its cursor stands: puts an entry of at most `entry_bytes` (a
/// node's header, key and data, and room for a set of duplicates to grow), or deletes one.
typedef struct {
    size_t entry_bytes;
    int deleting;
} write_kind;

/// The most a separator key a split adds to a branch page takes (a node's header, LMDB's
/// largest key, its pointer).
static const size_t separator_bytes = node_header_size + 511 + 2;

/// Whether the pages of `cursor`'s path that are committed pages of the file are sound for
/// `write`. LMDB copies each by its header and changes the node the cursor is on; a page a
/// put may split has every node copied by its size, and the pages beside a page a delete may
/// leave under a third full may be merged with it or lend it a node.
static int path_is_sound(const struct lmdb09_cursor *cursor, const strata_page_bounds *bounds, write_kind write) {
    // An empty tree leaves the page count of an earlier search but no root: a write into it
    // makes a new page, changing none of the file's.
    if (cursor->snum == 0 || cursor->pages[0] == NULL) return 1;
    if (cursor->snum > cursor_stack_size || cursor->top != cursor->snum - 1) return 0;
    uint32_t leaf2_key_size;
    memcpy(&leaf2_key_size, cursor->db, sizeof leaf2_key_size);
    int may_split = !write.deleting;
    for (int level = (int)cursor->snum - 1; level >= 0; level--) {
        const uint8_t *page = cursor->pages[level];
        size_t index = cursor->indices[level];
        int committed = is_committed(page, bounds);
        if (committed && !committed_page_is_sound(page, bounds, leaf2_key_size, index, 0)) return 0;
        size_t lower = u16(page + 12), upper = u16(page + 14), count = (lower - header_size) / 2;
        size_t room = upper - lower, used = bounds->page_size - header_size - room;
        may_split = may_split && room < (level == cursor->top ? write.entry_bytes : separator_bytes);
        int may_underflow = write.deleting && (count <= 2 || used < bounds->page_size / 3);
        if (committed && (may_split || may_underflow) && !committed_page_is_sound(page, bounds, leaf2_key_size, index, 1)) return 0;
        if (!may_underflow || level == 0) continue;
        // The pages beside this one under its parent (sound, or LMDB's own copy of a sound one).
        const uint8_t *parent = cursor->pages[level - 1];
        size_t siblings = (u16(parent + 12) - header_size) / 2, at = cursor->indices[level - 1];
        for (size_t beside = at == 0 ? 1 : at - 1; beside <= at + 1 && beside < siblings; beside += 2) {
            const uint8_t *neighbour = committed_child(parent, beside, bounds);
            if (neighbour && !committed_page_is_sound(neighbour, bounds, leaf2_key_size, 0, 1)) return 0;
        }
    }
    return 1;
}

/// Whether the pages `write` through `raw`, an open cursor of `txn`'s database `dbi`
/// positioned where it writes, may change are sound. True when the bounds or the cursor's
/// layout are not known (nothing can be checked).
static int write_path_is_sound(MDB_cursor *raw, MDB_txn *txn, MDB_dbi dbi, const strata_page_bounds *bounds, write_kind write) {
#if STRATA_KNOWS_CURSOR_LAYOUT
    if (bounds == NULL || bounds->map_start == 0 || bounds->page_size == 0) return 1;
    // `mdb_cursor_txn` and `mdb_cursor_dbi` read LMDB's own fields: the mirror agrees.
    const struct lmdb09_cursor *cursor = (const struct lmdb09_cursor *)raw;
    if (cursor->txn != txn || cursor->dbi != dbi) return 1;
    if (!path_is_sound(cursor, bounds, write)) return 0;
    // A database of duplicates that outgrew their node keeps them in a tree of their own.
    const struct lmdb09_cursor *duplicates = cursor->xcursor;
    if (duplicates && (duplicates->flags & cursor_initialized) && cursor->snum > 0) {
        const uint8_t *leaf = cursor->pages[cursor->top];
        if (cursor->indices[cursor->top] >= (u16(leaf + 12) - header_size) / 2) return 1;
        const uint8_t *node = leaf + u16(leaf + header_size + 2 * cursor->indices[cursor->top]);
        if ((u16(node + 4) & node_sub_database) && !path_is_sound(duplicates, bounds, write)) return 0;
    }
#else
    (void)raw; (void)txn; (void)dbi; (void)bounds; (void)write;
#endif
    return 1;
}

int strata_checked_put(MDB_cursor *cursor, MDB_val *key, MDB_val *data, unsigned int flags, const strata_page_bounds *bounds) {
    MDB_txn *txn = mdb_cursor_txn(cursor);
    MDB_dbi dbi = mdb_cursor_dbi(cursor);
    unsigned int db_flags = 0;
    int rc = mdb_dbi_flags(txn, dbi, &db_flags);
    if (rc != MDB_SUCCESS) return rc;
    int duplicates = (db_flags & MDB_DUPSORT) != 0;
    // Where `mdb_cursor_put` will find its place: the last entry for an append, the value
    // among a key's duplicates, or the key.
    MDB_val at_key = *key, at_data = *data;
    MDB_cursor_op op = (flags & MDB_APPEND) ? MDB_LAST : duplicates ? MDB_GET_BOTH_RANGE : MDB_SET_RANGE;
    rc = mdb_cursor_get(cursor, &at_key, &at_data, op);
    if (rc != MDB_SUCCESS && rc != MDB_NOTFOUND) return rc;
    int found_as_is = rc == MDB_SUCCESS && op == MDB_SET_RANGE && at_key.mv_size == key->mv_size &&
                      memcmp(at_key.mv_data, key->mv_data, key->mv_size) == 0;
    // The room the put takes: a new entry's node and its pointer (and for a key's
    // duplicates, when they move into a set of their own inside the node, the set's header
    // and nodes); a replaced value, what it adds to the old one (a value on overflow pages
    // becomes one in the node).
    size_t room = node_header_size + key->mv_size + data->mv_size + 2 + (duplicates ? header_size + 2 * node_header_size + 4 : 0);
    if (found_as_is) room = data->mv_size > at_data.mv_size ? data->mv_size - at_data.mv_size + sizeof(uint64_t) : 0;
    write_kind put = {room, 0};
    if (!write_path_is_sound(cursor, txn, dbi, bounds, put)) return MDB_CORRUPTED;
    // A key found as it is, in a database of one value per key, is replaced where the cursor
    // stands, with no second search (`MDB_NOOVERWRITE` reports it as `mdb_put` does).
    if (found_as_is && !(flags & MDB_NOOVERWRITE)) return mdb_cursor_put(cursor, key, data, flags | MDB_CURRENT);
    return mdb_cursor_put(cursor, key, data, flags);
}

int strata_checked_del(MDB_cursor *cursor, MDB_val *key, MDB_val *data, const strata_page_bounds *bounds) {
    unsigned int db_flags = 0;
    int rc = mdb_dbi_flags(mdb_cursor_txn(cursor), mdb_cursor_dbi(cursor), &db_flags);
    if (rc != MDB_SUCCESS) return rc;
    // As `mdb_del`: a value names one duplicate in a database of duplicates; otherwise the
    // key goes with all its values.
    int one_duplicate = data != NULL && (db_flags & MDB_DUPSORT);
    MDB_val at_key = *key, at_data = one_duplicate ? *data : (MDB_val){0, NULL};
    rc = mdb_cursor_get(cursor, &at_key, &at_data, one_duplicate ? MDB_GET_BOTH : MDB_SET);
    if (rc != MDB_SUCCESS) return rc;
    return strata_checked_cursor_del(cursor, one_duplicate || !(db_flags & MDB_DUPSORT) ? 0 : MDB_NODUPDATA, bounds);
}

int strata_checked_cursor_del(MDB_cursor *cursor, unsigned int flags, const strata_page_bounds *bounds) {
    write_kind delete = {0, 1};
    if (!write_path_is_sound(cursor, mdb_cursor_txn(cursor), mdb_cursor_dbi(cursor), bounds, delete)) return MDB_CORRUPTED;
    return mdb_cursor_del(cursor, flags);
}
