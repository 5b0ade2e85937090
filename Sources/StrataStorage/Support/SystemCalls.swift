import CStrataSync
import Glibc

/// A system call that failed: the call, the file it was made on, and the `errno` it set.
/// Callers turn it into a `StorageError` once, where they know what the call was for.
package struct Errno: Error, Equatable, CustomStringConvertible {
    /// The call, as `open` or `fcntl(F_SETLKW)`.
    package let call: String
    /// The file the call was made on, when there is one.
    package let path: String?
    /// The `errno` value.
    package let code: Int32

    /// The system's text for `code` ("No such file or directory").
    package var reason: String { String(cString: strerror(code)) }

    package var description: String { "\(call)\(path.map { " '\($0)'" } ?? ""): \(reason)" }
}

/// The storage layer's POSIX calls: each returns its result or throws the `Errno` it set,
/// and calls a signal interrupted are made again (the way swift-system's `Syscalls.swift`
/// wraps each call once). Nothing else in `Coordination/`, `StorageFile+Migration.swift` or
/// `LockFileChecks.swift` calls the system directly.
enum SystemCalls {
    /// Runs `call` until it is not interrupted by a signal; a result of -1 throws `errno`.
    private static func retrying<Result: BinaryInteger>(_ name: String, _ path: String?,
                                                         _ call: () -> Result) throws(Errno) -> Result {
        while true {
            let result = call()
            if result != -1 { return result }
            if errno != EINTR { throw Errno(call: name, path: path, code: errno) }
        }
    }

    /// `open(2)`: a descriptor for `path`.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> Int32 {
        try retrying("open", path) { Glibc.open(path, flags, mode) }
    }

    /// `close(2)`. Its result is not checked: on Linux the descriptor is released even when
    /// close reports an error, so there is nothing to retry or undo.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// `fstat(2)`: the size in bytes of the open file `fd`.
    static func size(of fd: Int32, path: String) throws(Errno) -> Int {
        var st = stat()
        _ = try retrying("fstat", path) { fstat(fd, &st) }
        return Int(st.st_size)
    }

    /// `fstat(2)`: whether the open file `fd` is a regular file (not a device, a FIFO, a
    /// socket or a directory).
    static func isRegularFile(_ fd: Int32, path: String) throws(Errno) -> Bool {
        var st = stat()
        _ = try retrying("fstat", path) { fstat(fd, &st) }
        return st.st_mode & S_IFMT == S_IFREG
    }

    /// `posix_fallocate(3)`: gives `fd` disk blocks for its first `length` bytes (growing
    /// the file to at least that), so that writing through a mapping of them cannot fault
    /// (`SIGBUS`) on a full file system: the shortage is `ENOSPC` here instead. A file
    /// system that cannot allocate ahead (`EOPNOTSUPP`) gets the size alone (`ftruncate`).
    static func allocate(_ fd: Int32, length: Int, path: String) throws(Errno) {
        while true {
            let rc = posix_fallocate(fd, 0, off_t(length))  // returns the error, not -1
            if rc == 0 { return }
            if rc == EOPNOTSUPP || rc == ENOSYS { return try truncate(fd, to: length, path: path) }
            if rc != EINTR { throw Errno(call: "posix_fallocate", path: path, code: rc) }
        }
    }

    /// `lstat(2)`: the type bits (`S_IFMT` of `st_mode`) of what is at `path`, not following a
    /// symbolic link; nil when nothing is there.
    static func fileType(atPath path: String) -> mode_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : nil
    }

    /// `unlink(2)`, for a file this process created; one already gone is not an error.
    static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// `fchmod(2)`: gives the open file `fd` the permissions `mode` (not masked by the umask).
    static func setMode(_ fd: Int32, _ mode: mode_t, path: String) throws(Errno) {
        _ = try retrying("fchmod", path) { fchmod(fd, mode) }
    }

    /// `stat(2)`: the size in bytes of the file at `path`.
    static func size(atPath path: String) throws(Errno) -> Int {
        var st = stat()
        _ = try retrying("stat", path) { stat(path, &st) }
        return Int(st.st_size)
    }

    /// `pread(2)`: up to `count` bytes of `fd` from `offset` (fewer at the end of the file).
    static func read(_ fd: Int32, count: Int, at offset: Int, path: String) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try retrying("pread", path) { pread(fd, &bytes, count, off_t(offset)) }
        return Array(bytes.prefix(read))
    }

    /// `ftruncate(2)`: sets the size of `fd` to `length` bytes (new bytes read as zero).
    static func truncate(_ fd: Int32, to length: Int, path: String) throws(Errno) {
        _ = try retrying("ftruncate", path) { ftruncate(fd, off_t(length)) }
    }

    /// `fcntl(F_SETLK)` or, with `wait`, `fcntl(F_SETLKW)`: takes (`F_RDLCK`, `F_WRLCK`) or
    /// releases (`F_UNLCK`) a lock on byte `byte` of `fd`. Without `wait`, a lock another
    /// process holds throws `EAGAIN` or `EACCES`.
    static func lock(_ fd: Int32, byte: Int, type: Int32, wait: Bool, path: String) throws(Errno) {
        var request = byteRange(byte, type: type)
        let command = wait ? F_SETLKW : F_SETLK
        _ = try retrying(wait ? "fcntl(F_SETLKW)" : "fcntl(F_SETLK)", path) { fcntl(fd, command, &request) }
    }

    /// `fcntl(F_GETLK)`: the pid of a process holding a lock on byte `byte` of `fd` that
    /// would conflict with a write lock, or nil when none does.
    static func lockHolder(_ fd: Int32, byte: Int, path: String) throws(Errno) -> pid_t? {
        var request = byteRange(byte, type: F_WRLCK)
        _ = try retrying("fcntl(F_GETLK)", path) { fcntl(fd, F_GETLK, &request) }
        return request.l_type == Int16(F_UNLCK) ? nil : request.l_pid
    }

    /// The `flock` request for one byte.
    private static func byteRange(_ byte: Int, type: Int32) -> flock {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(byte)
        request.l_len = 1
        return request
    }

    /// `mmap(2)`: maps `length` bytes of `fd` shared, writable when `writable`.
    static func map(_ fd: Int32, length: Int, writable: Bool, path: String) throws(Errno) -> UnsafeMutableRawPointer {
        let protection = writable ? PROT_READ | PROT_WRITE : PROT_READ
        guard let base = mmap(nil, length, protection, MAP_SHARED, fd, 0), base != MAP_FAILED else {
            throw Errno(call: "mmap", path: path, code: errno)
        }
        return base
    }

    /// `munmap(2)` of a mapping `map` returned. It fails only for a range that was never
    /// mapped, which a mapping's owner cannot pass, so the result is not checked.
    static func unmap(_ base: UnsafeMutableRawPointer, length: Int) {
        _ = munmap(base, length)
    }

    /// `rename(2)`: replaces `destination` by `source`.
    static func rename(_ source: String, to destination: String) throws(Errno) {
        _ = try retrying("rename", destination) { Glibc.rename(source, destination) }
    }

    /// `kill(pid, 0)`: whether process `pid` exists (`EPERM`: it does, owned by another user).
    static func processExists(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// `futex(FUTEX_WAIT)`: sleeps while the shared word equals `expected`, at most
    /// `milliseconds`. A timeout, a signal and a word that already changed all return: the
    /// caller reads the word again in every case.
    static func futexWait(_ word: UnsafeMutablePointer<UInt32>, whileEqualTo expected: UInt32, milliseconds: Int32) {
        _ = strata_futex_wait(word, expected, milliseconds)
    }

    /// `futex(FUTEX_WAKE)`: wakes every waiter on the shared word. It fails only for an
    /// address outside a mapping, which `SharedMapping`'s checked offsets rule out.
    static func futexWakeAll(_ word: UnsafeMutablePointer<UInt32>) {
        _ = strata_futex_wake_all(word)
    }
}
