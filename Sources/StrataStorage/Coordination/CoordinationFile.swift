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
    /// database then works without cross-process notifications. A file it creates gets
    /// `mode` exactly, when one is given (else 0666 masked by the umask).
    package static func open(databasePath: String, register: Bool, mode: mode_t? = nil) throws -> CoordinationFile? {
        let path = path(forDatabaseAt: databasePath)
        let opened: (fd: Int32, writable: Bool)?
        do {
            opened = try openDescriptor(path, mode: mode)
        } catch let error as Errno {
            throw StorageError(.fileAccess, "Opening the coordination file '\(path)' failed: \(error.reason)")
        }
        guard let (fd, writable) = opened else { return nil }
        do {
            return try CoordinationFile(path: path, fd: fd, writable: writable, register: register && writable)
        } catch {
            SystemCalls.close(fd)
            throw error
        }
    }

    /// A descriptor for the file at `path`, created when missing, and whether it is open for
    /// writing: a file this process may not write is opened read-only, and nil means it may
    /// not create it either.
    /// The file is created 0666 masked by the umask (as LMDB creates its own), never through a
    /// symbolic link (`O_NOFOLLOW`), and must be a regular file.
    private static func openDescriptor(_ path: String, mode: mode_t?) throws -> (fd: Int32, writable: Bool)? {
        let existed = SystemCalls.fileType(atPath: path) != nil
        let opened: (fd: Int32, writable: Bool)
        do {
            opened = (try SystemCalls.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode: 0o666), true)
        } catch where [EACCES, EROFS, EPERM].contains(error.code) {
            do {
                opened = (try SystemCalls.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), false)
            } catch where error.code == ENOENT {
                return nil
            }
        } catch where error.code == ELOOP {
            throw LockFileChecks.notRegular(path, "it is a symbolic link")
        }
        do {
            guard try SystemCalls.isRegularFile(opened.fd, path: path) else {
                throw LockFileChecks.notRegular(path, "it is not a regular file")
            }
            if !existed, opened.writable, let mode { try SystemCalls.setMode(opened.fd, mode, path: path) }
        } catch {
            SystemCalls.close(opened.fd)
            throw error
        }
        return opened
    }

    private init(path: String, fd: Int32, writable: Bool, register: Bool) throws {
        self.path = path
        self.fd = fd
        isWritable = writable
        guard writable else {
            // A reader that may not write the file takes no write lock (its descriptor cannot):
            // it waits out a rebuild (held with byte 1 exclusive) and then only looks.
            try Self.lock(fd, byte: 1, type: F_RDLCK, path: path)
            guard Self.hasCurrentLayout(fd, path: path) else {
                throw StorageError(.fileAccess, "The coordination file '\(path)' is not initialised and cannot be written")
            }
            mapping = try SharedMapping(fd: fd, writable: false, path: path)
            return
        }
        Self.threadLock.lock()
        defer { Self.threadLock.unlock() }
        try Self.lock(fd, byte: 0, type: F_WRLCK, path: path)
        defer { Self.unlock(fd, byte: 0) }
        if !Self.hasCurrentLayout(fd, path: path) {
            try Self.rebuild(fd, path: path)
        }
        try Self.lock(fd, byte: 1, type: F_RDLCK, path: path)
        mapping = try SharedMapping(fd: fd, writable: writable, path: path)
        if register {
            logFreed(reclaimDeadSlots())
            slot = try claimSlot()
        }
    }

    deinit {
        // Only the owner writes its slot, and the pid goes last: no lock is needed, so a
        // process of another user holding the registry lock cannot keep this one from closing.
        if let slot { free(slot) }
        SystemCalls.close(fd)  // drops both byte locks
    }

    // MARK: - Opening

    /// Whether the file is complete and in the layout this code uses.
    /// A file that cannot be read is not: it is rebuilt, or refused when that fails.
    private static func hasCurrentLayout(_ fd: Int32, path: String) -> Bool {
        let header: [UInt8]
        do {
            guard try SystemCalls.size(of: fd, path: path) == CoordinationLayout.fileSize else { return false }
            header = try SystemCalls.read(fd, count: 24, at: 0, path: path)
        } catch {
            return false
        }
        guard header.count == 24 else { return false }
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
            try SystemCalls.lock(fd, byte: 1, type: F_WRLCK, wait: false, path: path)
        } catch {
            throw StorageError(.fileAccess, "The coordination file '\(path)' has another layout (or is damaged) and other processes have it open; close them, or remove the file when none is running")
        }
        do {
            // Blocks first, so that the writes through the mapping below cannot fault on a
            // full file system.
            try SystemCalls.truncate(fd, to: 0, path: path)
            try SystemCalls.allocate(fd, length: CoordinationLayout.fileSize, path: path)
        } catch {
            try? SystemCalls.truncate(fd, to: 0, path: path)
            if error.code == ENOSPC || error.code == EDQUOT {
                throw StorageError(.outOfDiskSpace, "Creating the coordination file '\(path)' failed: no space left on device; free some space and open again")
            }
            throw StorageError(.fileAccess, "Sizing the coordination file '\(path)' failed: \(error.reason)")
        }
        let mapping = try SharedMapping(fd: fd, writable: true, path: path)
        mapping.store32(CoordinationLayout.versionOffset, CoordinationLayout.version)
        mapping.store32(CoordinationLayout.slotCountOffset, UInt32(CoordinationLayout.slotCount))
        mapping.store32(CoordinationLayout.slotSizeOffset, UInt32(CoordinationLayout.slotSize))
        mapping.store32(CoordinationLayout.slotsStartOffset, UInt32(CoordinationLayout.headerSize))
        mapping.store64(CoordinationLayout.createdOffset, nanosecondsNow())
        mapping.write(CoordinationLayout.magic, at: 0)
    }

    /// How long a lock of the file is waited for. Processes of the database hold the registry
    /// lock for microseconds; anything longer is a process (perhaps of another user, who may
    /// read the file and so lock it shared) holding it on purpose or stopped.
    static let lockPatience: Duration = .seconds(5)

    /// Takes an `fcntl` lock (`F_RDLCK` or `F_WRLCK`) on one byte of the file, waiting at
    /// most `patience`: then `.incompatibleLockFile`, naming the process that holds it. With
    /// a zero `patience`, one try.
    static func lock(_ fd: Int32, byte: Int, type: Int32, patience: Duration = lockPatience, path: String) throws {
        let deadline = ContinuousClock.now + patience
        var pause: UInt32 = 100
        while true {
            do {
                return try SystemCalls.lock(fd, byte: byte, type: type, wait: false, path: path)
            } catch where error.code == EAGAIN || error.code == EACCES {
                guard ContinuousClock.now < deadline else {
                    let holder = (try? SystemCalls.lockHolder(fd, byte: byte, path: path)).flatMap { $0 }
                    throw StorageError(.incompatibleLockFile, "The coordination file '\(path)' is locked by \(holder.map { "process \($0)" } ?? "another process"), which has held it for more than \(patience); that process (perhaps of another user who may read the file) must let it go or end")
                }
                usleep(pause)
                pause = min(pause * 2, 20_000)
            } catch {
                throw StorageError(.fileAccess, "Locking the coordination file '\(path)' failed: \(error.reason)")
            }
        }
    }

    /// Releases this process's lock on one byte of the file (which cannot fail for a byte it
    /// may lock).
    static func unlock(_ fd: Int32, byte: Int) {
        try? SystemCalls.lock(fd, byte: byte, type: F_UNLCK, wait: false, path: "")
    }

    /// `fcntl` locks belong to the process, not the thread: this lock keeps this process's
    /// threads out of each other's registry sections.
    private static let threadLock = NSLock()

    /// Runs `body` holding the registry lock (against other processes and other threads),
    /// waiting for it at most `patience`.
    func withRegistryLock<T>(patience: Duration = lockPatience, _ body: () throws -> T) throws -> T {
        Self.threadLock.lock()
        defer { Self.threadLock.unlock() }
        try Self.lock(fd, byte: 0, type: F_WRLCK, patience: patience, path: path)
        defer { Self.unlock(fd, byte: 0) }
        return try body()
    }

    // MARK: - Commits

    /// The stored schema's version after the newest commit.
    package var schemaVersion: UInt64 { mapping.load64(CoordinationLayout.schemaVersionOffset) }

    /// Publishes a commit and wakes every other process: each registered one through the wake
    /// word of its own slot (so a commit does not wake its own process's notifier, which the
    /// committing thread tells directly), unregistered watchers through the commit sequence.
    /// Called right after the LMDB commit; a process killed in between wakes nobody, which
    /// the waiters' timed waits cover (they also compare LMDB's newest transaction).
    /// `schemaVersion` is nil when the commit did not change it.
    package func publishCommit(version: UInt64, schemaVersion: UInt64?) {
        guard isWritable else { return }
        mapping.store64(CoordinationLayout.latestTimeOffset, Self.nanosecondsNow())
        mapping.store32(CoordinationLayout.latestPIDOffset, UInt32(bitPattern: ProcessIdentity.current.pid))
        strata_max64(mapping.word64(CoordinationLayout.latestVersionOffset), version)
        if let schemaVersion { mapping.store64(CoordinationLayout.schemaVersionOffset, schemaVersion) }
        strata_add32(mapping.word32(CoordinationLayout.commitSequenceOffset), 1)
        mapping.wakeAll(CoordinationLayout.commitSequenceOffset)
        let slots = min(Int(mapping.load32(CoordinationLayout.slotHighWaterOffset)), CoordinationLayout.slotCount)
        for other in 0..<slots where other != slot {
            let pid = mapping.load32(slotOffset(other, CoordinationLayout.pidOffset))
            guard pid != 0 else { continue }
            let wake = slotOffset(other, CoordinationLayout.wakeOffset)
            strata_add32(mapping.word32(wake), 1)
            // An owner whose notifier says it is awake reads its wake word before it sleeps
            // again: it sees this commit without a system call.
            if mapping.load32(slotOffset(other, CoordinationLayout.awakeOffset)) != pid { mapping.wakeAll(wake) }
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

    /// Where this process's notifier says it is awake (`CommitNotifier`), with the value
    /// that says so (its pid); nil when it has no slot.
    package var awakeMarker: (offset: Int, value: UInt32)? {
        slot.map { (slotOffset($0, CoordinationLayout.awakeOffset), UInt32(bitPattern: ProcessIdentity.current.pid)) }
    }

    // MARK: - Time

    static func nanosecondsNow() -> UInt64 {
        UInt64(max(0, Date().timeIntervalSince1970 * 1e9))
    }

    static func date(_ nanoseconds: UInt64) -> Date {
        Date(timeIntervalSince1970: Double(nanoseconds) / 1e9)
    }
}
