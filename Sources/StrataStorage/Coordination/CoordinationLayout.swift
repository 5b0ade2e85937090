/// The byte layout of the `.lock` coordination file, layout version 1 (docs/FILE-FORMAT.md,
/// "The coordination file"). All integers are little-endian, at naturally aligned offsets,
/// so that the words processes share can be read and written atomically in place.
enum CoordinationLayout {
    /// The first eight bytes of every coordination file.
    static let magic: [UInt8] = Array("STRATALK".utf8)
    /// The layout this code reads and writes. A file with another one is rebuilt when no
    /// process uses it, and refused while one does.
    static let version: UInt32 = 1

    // The header.
    static let versionOffset = 8          // u32 layout version
    static let slotCountOffset = 12       // u32 number of process slots
    static let slotSizeOffset = 16        // u32 bytes per slot
    static let slotsStartOffset = 20      // u32 offset of slot 0
    static let commitSequenceOffset = 24  // u32, +1 per commit; futex word of unregistered watchers
    static let slotHighWaterOffset = 28   // u32, slots below it may be in use (raised by claims)
    static let latestVersionOffset = 32   // u64 newest committed version
    static let latestTimeOffset = 40      // u64 its commit time, nanoseconds since 1970
    static let latestPIDOffset = 48       // u32 the process that committed it
    static let schemaVersionOffset = 56   // u64 the stored schema's version after that commit
    static let createdOffset = 64         // u64 when this file was initialised, ns since 1970
    static let fileIDOffset = 72          // u64 the database's file id (meta `fileID`) the next field is for; 0: none
    static let fileVersionOffset = 80     // u64 newest version committed to that database (raised, reset for another id)
    static let headerSize = 256

    // One slot per process that has the database open.
    static let slotCount = 512
    static let slotSize = 128
    static let pidOffset = 0              // u32 owner pid; 0: free (claimed by compare-and-swap)
    static let startTimeOffset = 8        // u64 owner's start time (clock ticks after boot)
    static let openedOffset = 16          // u64 when it opened the file, ns since 1970
    static let pinnedVersionOffset = 24   // u64 oldest version it pins (valid if pinCount > 0)
    static let pinnedSinceOffset = 32     // u64 since when it pins that version, ns since 1970
    static let pinCountOffset = 40        // u32 snapshots it holds open
    static let wakeOffset = 44            // u32, +1 when another process commits: its futex word
    static let pinnedTxnOffset = 48       // u64 LMDB transaction id of the oldest pinned snapshot
    static let awakeOffset = 56           // u32 owner's pid while its notifier is awake; else asleep (wake it)
    static let nameOffset = 64            // 64 bytes: executable name, UTF-8, NUL-padded
    static let nameSize = 64

    /// The size of a whole file.
    static let fileSize = headerSize + slotCount * slotSize
}
