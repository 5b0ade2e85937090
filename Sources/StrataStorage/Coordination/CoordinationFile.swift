import CStrataSync
import Foundation
import Glibc

/// Strata's `.lock` file beside a database (`FILE.lock`): what LMDB's own lock file does not
/// carry. Every process that opens the database maps it; it holds the commit sequence that
/// wakes observers in every process, the newest version and schema version, and a registry
/// of the processes that have the file open with the versions they pin
/// (docs/FILE-FORMAT.md, "The coordination file").
///
/// Two `fcntl` byte locks make opening race-free and crash-safe (the kernel drops them when
/// a process dies): byte 0 is the registry lock, held to initialise the file and to claim or
/// free slots; byte 1 is held shared by every process that has the file open, so a process
/// that gets it exclusively knows that nobody uses the file and may rebuild it.
package final class CoordinationFile: @unchecked Sendable {
    // Sendable invariant: `slot` is set once at open; shared words go through `mapping`'s
    // atomic operations.
    package let path: String
    package let mapping: SharedMapping
    private let fd: Int32
    /// Whether this process may write the shared words (false in a read-only directory).
    let isWritable: Bool
    /// This process's slot in the registry (nil for a reader that only looks).
    private(set) var slot: Int?

    /// The coordination file's path for the database at `databasePath`.
    package static func path(forDatabaseAt databasePath: String) -> String { databasePath + ".lock" }

    /// Opens the coordination file of the database at `databasePath`, creating or rebuilding
    /// it when needed, and (with `register`) claims a registry slot for this process. Returns
    /// nil when the file can be neither created nor opened (a read-only directory): the
    /// database then works without cross-process notifications.
    package static func open(databasePath: String, register: Bool) throws -> CoordinationFile? {
        let path = path(forDatabaseAt: databasePath)
        var fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        var writable = true
        if fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM) {
            fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            writable = false
            if fd < 0 && errno == ENOENT { return nil }
        }
        guard fd >= 0 else {
            throw StorageError(.fileAccess, "Opening the coordination file '\(path)' failed: \(String(cString: strerror(errno)))")
        }
        do {
            return try CoordinationFile(path: path, fd: fd, writable: writable, register: register && writable)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    private init(path: String, fd: Int32, writable: Bool, register: Bool) throws {
        self.path = path
        self.fd = fd
        isWritable = writable
        Self.threadLock.lock()
        defer { Self.threadLock.unlock() }
        try Self.lock(fd, byte: 0, type: F_WRLCK, wait: true, path: path)
        defer { try? Self.lock(fd, byte: 0, type: F_UNLCK, wait: false, path: path) }
        if !Self.hasCurrentLayout(fd) {
            guard writable else {
                throw StorageError(.fileAccess, "The coordination file '\(path)' is not initialised and cannot be written")
            }
            try Self.rebuild(fd, path: path)
        }
        try Self.lock(fd, byte: 1, type: F_RDLCK, wait: true, path: path)
        mapping = try SharedMapping(fd: fd, length: CoordinationLayout.fileSize, writable: writable)
        if register {
            reclaimDeadSlots()
            slot = try claimSlot()
        }
    }

    deinit {
        if let slot { _ = try? withRegistryLock { free(slot) } }
        Glibc.close(fd)  // drops both byte locks
    }

    // MARK: - Opening

    /// Whether the file is complete and in the layout this code uses.
    private static func hasCurrentLayout(_ fd: Int32) -> Bool {
        var st = stat()
        guard fstat(fd, &st) == 0, Int(st.st_size) == CoordinationLayout.fileSize else { return false }
        var header = [UInt8](repeating: 0, count: 24)
        guard pread(fd, &header, header.count, 0) == header.count else { return false }
        func u32(_ offset: Int) -> UInt32 {
            header[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
        return Array(header[0..<8]) == CoordinationLayout.magic
            && u32(CoordinationLayout.versionOffset) == CoordinationLayout.version
            && u32(CoordinationLayout.slotCountOffset) == UInt32(CoordinationLayout.slotCount)
            && u32(CoordinationLayout.slotSizeOffset) == UInt32(CoordinationLayout.slotSize)
            && u32(CoordinationLayout.slotsStartOffset) == UInt32(CoordinationLayout.headerSize)
    }

    /// Writes a fresh file (new, left half-initialised by a killed process, or of another
    /// layout), provided no process has it open; the magic goes last.
    private static func rebuild(_ fd: Int32, path: String) throws {
        do {
            try lock(fd, byte: 1, type: F_WRLCK, wait: false, path: path)
        } catch {
            throw StorageError(.fileAccess, "The coordination file '\(path)' has another layout (or is damaged) and other processes have it open; close them, or remove the file when none is running")
        }
        guard ftruncate(fd, 0) == 0, ftruncate(fd, off_t(CoordinationLayout.fileSize)) == 0 else {
            throw StorageError(.fileAccess, "Sizing the coordination file '\(path)' failed: \(String(cString: strerror(errno)))")
        }
        let mapping = try SharedMapping(fd: fd, length: CoordinationLayout.fileSize, writable: true)
        mapping.store32(CoordinationLayout.versionOffset, CoordinationLayout.version)
        mapping.store32(CoordinationLayout.slotCountOffset, UInt32(CoordinationLayout.slotCount))
        mapping.store32(CoordinationLayout.slotSizeOffset, UInt32(CoordinationLayout.slotSize))
        mapping.store32(CoordinationLayout.slotsStartOffset, UInt32(CoordinationLayout.headerSize))
        mapping.store64(CoordinationLayout.createdOffset, nanosecondsNow())
        mapping.write(CoordinationLayout.magic, at: 0)
    }

    /// Takes, or with `F_UNLCK` releases, an `fcntl` lock on one byte of the file.
    static func lock(_ fd: Int32, byte: Int, type: Int32, wait: Bool, path: String) throws {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(byte)
        request.l_len = 1
        while fcntl(fd, wait ? F_SETLKW : F_SETLK, &request) != 0 {
            if errno == EINTR { continue }
            throw StorageError(.fileAccess, "Locking the coordination file '\(path)' failed: \(String(cString: strerror(errno)))")
        }
    }

    /// `fcntl` locks belong to the process, not the thread: this lock keeps this process's
    /// threads out of each other's registry sections.
    private static let threadLock = NSLock()

    /// Runs `body` holding the registry lock (against other processes and other threads).
    func withRegistryLock<T>(_ body: () throws -> T) throws -> T {
        Self.threadLock.lock()
        defer { Self.threadLock.unlock() }
        try Self.lock(fd, byte: 0, type: F_WRLCK, wait: true, path: path)
        defer { try? Self.lock(fd, byte: 0, type: F_UNLCK, wait: false, path: path) }
        return try body()
    }

    // MARK: - Commits

    /// The commit sequence: incremented by every commit, in any process.
    package var commitSequence: UInt32 { mapping.load32(CoordinationLayout.commitSequenceOffset) }

    /// The newest committed version, as the last committer published it.
    package var latestVersion: UInt64 { mapping.load64(CoordinationLayout.latestVersionOffset) }

    /// The stored schema's version after the newest commit.
    package var schemaVersion: UInt64 { mapping.load64(CoordinationLayout.schemaVersionOffset) }

    /// The newest commit as published: version, time, committing pid.
    package var latestCommit: (version: UInt64, time: Date, pid: Int32) {
        (latestVersion, Self.date(mapping.load64(CoordinationLayout.latestTimeOffset)),
         Int32(bitPattern: mapping.load32(CoordinationLayout.latestPIDOffset)))
    }

    /// Publishes a commit and wakes every other process: each registered one through the wake
    /// word of its own slot (so a commit does not wake its own process's notifier, which the
    /// committing thread tells directly), unregistered watchers through the commit sequence.
    /// Called right after the LMDB commit; a process killed in between wakes nobody, which
    /// the waiters' timed waits cover (they also compare LMDB's newest transaction).
    /// `schemaVersion` is nil when the commit did not change it.
    package func publishCommit(version: UInt64, schemaVersion: UInt64?) {
        guard isWritable else { return }
        mapping.store64(CoordinationLayout.latestTimeOffset, Self.nanosecondsNow())
        mapping.store32(CoordinationLayout.latestPIDOffset, UInt32(bitPattern: getpid()))
        strata_max64(mapping.word64(CoordinationLayout.latestVersionOffset), version)
        if let schemaVersion { mapping.store64(CoordinationLayout.schemaVersionOffset, schemaVersion) }
        strata_add32(mapping.word32(CoordinationLayout.commitSequenceOffset), 1)
        mapping.wakeAll(CoordinationLayout.commitSequenceOffset)
        let slots = min(Int(mapping.load32(CoordinationLayout.slotHighWaterOffset)), CoordinationLayout.slotCount)
        for other in 0..<slots where other != slot && mapping.load32(slotOffset(other, CoordinationLayout.pidOffset)) != 0 {
            let wake = slotOffset(other, CoordinationLayout.wakeOffset)
            strata_add32(mapping.word32(wake), 1)
            mapping.wakeAll(wake)
        }
    }

    /// The byte offset of `field` in slot `slot`.
    func slotOffset(_ slot: Int, _ field: Int) -> Int {
        CoordinationLayout.headerSize + slot * CoordinationLayout.slotSize + field
    }

    /// The word this process's notifier sleeps on: its slot's wake word, or the commit
    /// sequence when it has no slot.
    package var wakeWordOffset: Int {
        slot.map { slotOffset($0, CoordinationLayout.wakeOffset) } ?? CoordinationLayout.commitSequenceOffset
    }

    /// Sleeps until the commit sequence differs from `sequence` or `milliseconds` pass;
    /// returns the sequence then.
    package func waitForCommit(after sequence: UInt32, milliseconds: Int32) -> UInt32 {
        mapping.wait(CoordinationLayout.commitSequenceOffset, whileEqualTo: sequence, milliseconds: milliseconds)
        return commitSequence
    }

    // MARK: - Time

    static func nanosecondsNow() -> UInt64 {
        UInt64(max(0, Date().timeIntervalSince1970 * 1e9))
    }

    static func date(_ nanoseconds: UInt64) -> Date {
        Date(timeIntervalSince1970: Double(nanoseconds) / 1e9)
    }
}
