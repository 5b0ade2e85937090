#define _GNU_SOURCE
#include "strata_fault_guard.h"
#include "strata_write_pages.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>

/// Where the guarded call running on this thread resumes; NULL outside guarded calls.
/// Initial-exec: a guarded call then reaches it with one load, not a `__tls_get_addr` call.
static __thread sigjmp_buf *resume_point __attribute__((tls_model("initial-exec")));
/// Why this thread's last guarded call ended early.
static __thread char reason[256] = "a fault or one of its own assertions";

static struct sigaction previous_segv, previous_bus;
static pthread_once_t handlers_installed = PTHREAD_ONCE_INIT;

/// Leaves the guarded call running on this thread, if there is one, saying `why`.
static void leave_guarded_call(const char *why) {
    sigjmp_buf *resume = resume_point;
    if (resume == NULL) return;
    resume_point = NULL;
    strncpy(reason, why, sizeof reason - 1);
    reason[sizeof reason - 1] = 0;
    siglongjmp(*resume, 1);
}

static void on_fault(int signal, siginfo_t *info, void *context) {
    // A fault (si_code > 0) inside a guarded call; a signal sent with kill() is not one.
    if (info->si_code > 0) leave_guarded_call(signal == SIGSEGV ? "a memory fault (SIGSEGV)" : "a bus error (SIGBUS)");
    // Not ours: whoever handled the signal before handles it now.
    const struct sigaction *previous = signal == SIGSEGV ? &previous_segv : &previous_bus;
    if (previous->sa_flags & SA_SIGINFO) {
        previous->sa_sigaction(signal, info, context);
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(signal);
    } else {
        // The default: returning re-runs the faulting instruction under it; a sent signal
        // is sent again.
        sigaction(signal, previous, NULL);
        if (info->si_code <= 0) raise(signal);
    }
}

static void on_assertion(MDB_env *env, const char *message) {
    // Outside a guarded call LMDB goes on to print the message and abort, as it would.
    leave_guarded_call(message);
    (void)env;
}

static void install_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    // SA_NODEFER: the signal stays unblocked, so leaving the handler by a jump needs no
    // mask restored. SA_ONSTACK: a thread's alternate stack (stack overflows) still serves.
    action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previous_segv);
    sigaction(SIGBUS, &action, &previous_bus);
}

void strata_fault_guard_install(MDB_env *env) {
    pthread_once(&handlers_installed, install_handlers);
    mdb_env_set_assert(env, on_assertion);
}

const char *strata_fault_guard_reason(void) { return reason; }

/// Runs `call`, resuming here with STRATA_LMDB_FAULT when it faults or fails an assertion.
#define GUARDED(call)                                   \
    do {                                                \
        sigjmp_buf resume;                              \
        if (sigsetjmp(resume, 0) != 0) return STRATA_LMDB_FAULT; \
        resume_point = &resume;                         \
        int rc = (call);                                \
        resume_point = NULL;                            \
        return rc;                                      \
    } while (0)

int strata_guarded_get(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data) {
    GUARDED(mdb_get(txn, dbi, key, data));
}

int strata_guarded_cursor_get(MDB_cursor *cursor, MDB_val *key, MDB_val *data, MDB_cursor_op op) {
    GUARDED(mdb_cursor_get(cursor, key, data, op));
}

int strata_guarded_cursor_batch(MDB_cursor *cursor, MDB_cursor_op first, MDB_val *keys, MDB_val *values,
                                size_t max, size_t *count) {
    // One jump point for the whole batch: a fault anywhere ends it, keeping `*count`.
    *count = 0;
    sigjmp_buf resume;
    if (sigsetjmp(resume, 0) != 0) return STRATA_LMDB_FAULT;
    resume_point = &resume;
    int rc = MDB_SUCCESS;
    for (size_t n = 0; n < max; n++) {
        rc = mdb_cursor_get(cursor, &keys[n], &values[n], n == 0 ? first : MDB_NEXT);
        if (rc != MDB_SUCCESS) break;
        *count = n + 1;
    }
    resume_point = NULL;
    return rc;
}

int strata_guarded_cursor_count(MDB_cursor *cursor, size_t *count) {
    GUARDED(mdb_cursor_count(cursor, count));
}

/// Whether LMDB has marked `txn` failed: its calls then return `MDB_BAD_TXN`. The main
/// database's statistics read no page, after LMDB checks that mark.
static int failed(MDB_txn *txn) {
    MDB_stat main;
    return mdb_stat(txn, 1, &main) == MDB_BAD_TXN;
}

/// `mdb_cursor_open` and `mdb_stat` read the root of a database the transaction has not
/// used yet, and when that read meets a damaged page they mark the transaction failed but
/// return success (`mdb_stat` with the counts the transaction knew before): here the damage
/// is `MDB_CORRUPTED`, as LMDB's other calls report it.
static int checked_cursor_open(MDB_txn *txn, MDB_dbi dbi, MDB_cursor **cursor) {
    int rc = mdb_cursor_open(txn, dbi, cursor);
    if (rc == MDB_SUCCESS && failed(txn)) {
        mdb_cursor_close(*cursor);
        *cursor = NULL;
        return MDB_CORRUPTED;
    }
    return rc;
}

/// `mdb_cursor_renew` re-reads the database's root the same way when the transaction is new.
static int checked_cursor_renew(MDB_txn *txn, MDB_cursor *cursor) {
    int rc = mdb_cursor_renew(txn, cursor);
    return rc == MDB_SUCCESS && failed(txn) ? MDB_CORRUPTED : rc;
}

static int checked_stat(MDB_txn *txn, MDB_dbi dbi, MDB_stat *stat) {
    int rc = mdb_stat(txn, dbi, stat);
    return rc == MDB_SUCCESS && failed(txn) ? MDB_CORRUPTED : rc;
}

int strata_guarded_cursor_open(MDB_txn *txn, MDB_dbi dbi, MDB_cursor **cursor) {
    GUARDED(checked_cursor_open(txn, dbi, cursor));
}

int strata_guarded_cursor_renew(MDB_txn *txn, MDB_cursor *cursor) {
    GUARDED(checked_cursor_renew(txn, cursor));
}

int strata_guarded_stat(MDB_txn *txn, MDB_dbi dbi, MDB_stat *stat) {
    GUARDED(checked_stat(txn, dbi, stat));
}

int strata_guarded_copy(void *target, const void *source, size_t count) {
    GUARDED((memcpy(target, source, count), 0));
}

int strata_guarded_dbi_open(MDB_txn *txn, const char *name, unsigned int flags, MDB_dbi *dbi) {
    GUARDED(mdb_dbi_open(txn, name, flags, dbi));
}

int strata_guarded_put(MDB_cursor *cursor, MDB_val *key, MDB_val *data, unsigned int flags,
                       const strata_page_bounds *bounds) {
    GUARDED(strata_checked_put(cursor, key, data, flags, bounds));
}

int strata_guarded_del(MDB_cursor *cursor, MDB_val *key, MDB_val *data, const strata_page_bounds *bounds) {
    GUARDED(strata_checked_del(cursor, key, data, bounds));
}

int strata_guarded_cursor_del(MDB_cursor *cursor, unsigned int flags, const strata_page_bounds *bounds) {
    GUARDED(strata_checked_cursor_del(cursor, flags, bounds));
}

int strata_guarded_drop(MDB_txn *txn, MDB_dbi dbi, int del) {
    GUARDED(mdb_drop(txn, dbi, del));
}

int strata_guarded_commit(MDB_txn *txn) {
    GUARDED(mdb_txn_commit(txn));
}
