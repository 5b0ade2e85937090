import Foundation
import Glibc
import StrataStorage

/// The state behind a `Realm` value, one per thread (or queue) per configuration: the open
/// file, and the parts that each own one job: where it may be used (`Confinement`), the
/// transaction it reads (`Snapshot`), the classes bound to their tables (`BindingCache`), its
/// writes (`WriteCoordinator`) and its observers (`NotificationHub`).
final class RealmCore {
    /// What the per-thread cache refers to weakly. A weak reference gives its target a side
    /// table that slows every retain and release, and every managed object retains its core:
    /// so the cache watches this small token, which lives and dies with the core.
    let token = Token()
    final class Token {
        unowned(unsafe) var core: RealmCore?
    }

    let configuration: Realm.Configuration
    let file: StorageFile
    let path: String
    /// Where this instance may be used: checked on every access.
    let confinement: Confinement
    /// The transaction this instance reads through, and the stamp of its row views.
    @exclusivity(unchecked) var snapshot = Snapshot()
    /// The write transaction and the queued asynchronous writes.
    let writes = WriteCoordinator()
    /// The change observers registered on this instance (`Notifications.swift`).
    let notifications = NotificationHub()
    /// Whether commits made elsewhere move this instance forward on its run loop's next turn
    /// (RealmSwift's `autorefresh`, on by default).
    var autorefresh = true
    /// How many times `Realm.invalidate()` was called: objects and results remember the
    /// count they were obtained at, and are invalidated once it moves on.
    private(set) var invalidations: UInt32 = 0
    /// Brings other threads' and processes' commits to this instance's run loop (kept here:
    /// the file's notifier holds it weakly, so it goes with this instance).
    private var waker: CommitWaker?
    /// The classes looked up and bound to their tables so far (made under the frozen
    /// snapshot's lock on a frozen instance: `lazily`).
    @exclusivity(unchecked) private(set) var bindings = BindingCache()

    /// The process name written into history entries.
    static let processName = ProcessInfo.processInfo.processName

    /// The classes checked at open (the configuration's, with their link targets).
    var checkedClasses: [ModelClass] = []
    /// The stored schema last found compatible with this instance's classes; a snapshot with
    /// another one is checked again (`schemaChangeProblem`). Compared by value, which is
    /// cheap when unchanged: the file hands out one decoded schema per distinct byte string.
    var validatedSchema: FileSchema?
    /// An in-memory Realm's file, deleted when its last instance goes.
    private let memoryFile: InMemoryFile?
    /// The snapshot a frozen instance reads forever, from any thread (`RealmCore+Freeze.swift`);
    /// nil on a live instance.
    let frozenSnapshot: FrozenSnapshot?
    /// Whether this instance is frozen: one snapshot forever, readable from any thread.
    var isFrozen: Bool { frozenSnapshot != nil }

    /// Opens the file of `configuration` for an instance confined to `owner` (nil: the calling
    /// thread), checking or migrating its schema.
    init(configuration: Realm.Configuration, owner: Confinement.Owner? = nil) throws {
        let memory = try configuration.inMemoryIdentifier.map(InMemoryFile.forIdentifier)
        guard let path = memory?.path ?? configuration.path else {
            throw Realm.Error(.fail, "The configuration names no file: set fileURL or inMemoryIdentifier")
        }
        if configuration.deleteRealmIfMigrationNeeded && configuration.readOnly {
            throw Realm.Error(.invalidInput, "Cannot set `deleteRealmIfMigrationNeeded` when `readOnly` is set.", path: path)
        }
        self.configuration = configuration
        self.path = path
        memoryFile = memory
        confinement = owner.map(Confinement.init) ?? Confinement(.thread)
        frozenSnapshot = nil
        Logger.storageMessages
        Logger.shared.log(.detail, "DB: \(getpid()) Open file: \(path)")
        file = try Self.openFile(configuration, path: path)
        file.maximumActiveVersions = configuration.maximumNumberOfActiveVersions.map { Int(clamping: $0) }
        token.core = self
        try prepareSchema(ModelClass.withLinkTargets(configuration.objectTypes.map { try $0.map(ModelClass.of) } ?? ModelClass.defaultSchema))
        try storeOldValuesSetting()
        let waker = CommitWaker(self)
        file.addCommitListener(waker)
        self.waker = waker
        Logger.shared.log(.trace, "DB: \(getpid()) Schema checked: '\(path)' \(configuration.readOnly ? "read-only" : "read-write") at schema version \(configuration.schemaVersion)")
    }

    /// A frozen instance of `live`'s file reading `snapshot` forever. It never moves to another
    /// version and refuses writes and observers.
    init(frozenFrom live: RealmCore, snapshot: FrozenSnapshot) {
        configuration = live.configuration
        file = live.file
        path = live.path
        memoryFile = live.memoryFile
        confinement = Confinement(.anyThread)
        self.snapshot = Snapshot(frozen: snapshot.transaction)
        checkedClasses = live.checkedClasses
        validatedSchema = live.validatedSchema
        frozenSnapshot = snapshot
        autorefresh = false
        token.core = self
    }

    private func checkSchema(_ infos: [ModelClass], against stored: FileSchema) throws {
        let lines = SchemaDifferences.lines(infos, stored)
        if !lines.isEmpty {
            throw Realm.Error(.schemaMismatch, "Migration is required due to the following errors:\n- " + lines.joined(separator: "\n- "), path: path)
        }
    }

    /// Traps unless a write transaction is open on this thread (RealmSwift's rule).
    func checkWrite() {
        precondition(!isFrozen, "Attempting to modify a frozen object - call thaw on the Object instance first.")
        confinement.check()
        precondition(writes.isInWriteTransaction, "Attempting to modify object outside of a write transaction - call beginWrite on a Realm instance first.")
    }

    /// The transaction reads go through, beginning a read snapshot if none is held.
    func transaction() throws -> StorageTransaction {
        if let txn = snapshot.transaction { return txn }
        let txn = try snapshot.beginRead(file)
        if let validated = validatedSchema, txn.schema != validated, let problem = try schemaChangeProblem(txn) {
            preconditionFailure(problem)
        }
        return txn
    }

    /// Runs a read whose API cannot throw. A storage error traps with its message
    /// (RealmSwift's behaviour): the file failed, so there is no answer to give, and an
    /// empty or absent one would be wrong.
    @inline(__always)
    func reading<T>(_ body: () throws -> T) -> T {
        do { return try body() } catch { trapReading(error) }
    }

    /// Traps with the message of `error`, met by a read whose API cannot throw.
    @inline(never)
    func trapReading(_ error: Swift.Error) -> Never {
        trap((error as? StorageError).map { Realm.Error($0, path: path) } ?? error)
    }

    /// The version this instance sees (the newest commit in its snapshot).
    var version: UInt64 { reading { try transaction().version } }

    /// Releases the snapshot; the next read begins a new one at the newest version. Does
    /// nothing while a group of asynchronous writes holds the write transaction, nor on a
    /// frozen instance (`Snapshot`). A snapshot shared with a frozen instance is left to it.
    func endTransaction() {
        if writes.holdsGroup { return }
        snapshot.release()
    }

    /// `Realm.invalidate()`: releases the snapshot and invalidates every object and
    /// collection obtained so far. Nothing on a frozen instance, whose objects never go.
    func invalidate() {
        if isFrozen { return }
        if writes.isInWriteTransaction { writes.cancel(self) }
        endTransaction()
        invalidations &+= 1
    }

    /// The versions this instance committed lately: an object observer gives no old values
    /// for changes made here, as RealmSwift gives none for changes made on its thread.
    var recentCommits = RecentCommits()

    /// Right after this instance's commit: reads the version it committed from now on. A
    /// snapshot begun now sees the newest version, which is that one unless another writer
    /// committed in the instant since (then the Realm starts at that later one). If no
    /// snapshot can be begun, the next read begins one.
    func holdCommittedVersion() {
        _ = try? snapshot.beginRead(file)
    }

    /// Another commit happened (called on this instance's thread by its `CommitWaker`). With
    /// `autorefresh`, a snapshot behind the newest version moves forward and observers hear
    /// what changed; without it, `Realm.observe` blocks get `.refreshRequired`. Inside a
    /// write nothing happens: the commit delivers.
    func commitObserved() {
        guard !writes.isInWriteTransaction, !writes.holdsGroup, !notifications.isEmpty || snapshot.transaction != nil else { return }
        let isBehind = snapshot.transaction.map { _ in !snapshot.isOnNewestVersion } ?? true
        guard autorefresh else {
            if isBehind { notifications.refreshRequired(self) }
            return
        }
        if snapshot.transaction != nil && isBehind { endTransaction() }
        notifications.deliver(self)
    }

    /// Forgets the table bindings (after a change that may have removed tables they name).
    func dropBindings() { bindings.removeAll() }

    /// The binding of a model class, or nil when the file has no table for it. Throws
    /// `.schemaMismatch` when the stored class differs from the code's.
    func binding(for info: ModelClass) throws -> TableBinding? {
        try lazily { try makeBinding(for: info) }
    }

    /// The binding of stored class `name` for the dynamic API (its info a
    /// `ModelClass(dynamic:)`), or nil when the file has no such class.
    func dynamicBinding(named name: String) throws -> TableBinding? {
        try lazily { try makeDynamicBinding(named: name) }
    }

    /// The binding of stored class `name` for the objects mixed values hold: of the model
    /// class of that name when the program declares one, else the dynamic API's; nil when the
    /// file has no such class.
    func heldObjectBinding(_ name: String) throws -> TableBinding? {
        try lazily { () throws -> TableBinding? in
            if let binding = bindings.heldObjectBinding(named: name) { return binding }
            let declared = ModelClass.declared.first { $0.name == name && !$0.isDynamic }
            guard let binding = try declared.map({ try makeBinding(for: $0) }) ?? makeDynamicBinding(named: name) else { return nil }
            bindings.addHeld(binding)
            return binding
        }
    }

    /// `dynamicBinding(named:)`, in `lazily`.
    private func makeDynamicBinding(named name: String) throws -> TableBinding? {
        if let binding = bindings.dynamicBinding(named: name) { return binding }
        let txn = try translatingErrors(path: path) { try transaction() }
        guard let table = try translatingErrors(path: path, { try txn.table(name) }) else { return nil }
        let declared = ModelClass.declared.first { $0.name == name }
        let binding = TableBinding(info: ModelClass(dynamic: table.schema, declared: declared), table: table)
        bindings.add(binding)
        return binding
    }

    /// `binding(for:)`, in `lazily`.
    private func makeBinding(for info: ModelClass) throws -> TableBinding? {
        if info.isDynamic { return try makeDynamicBinding(named: info.name) }
        if let binding = bindings.binding(for: info) { return binding }
        let txn = try translatingErrors(path: path) { try transaction() }
        guard let table = try translatingErrors(path: path, { try txn.table(info.name) }) else { return nil }
        try checkSchema([info], against: txn.schema)
        let binding = TableBinding(info: info, table: table)
        bindings.add(binding)
        return binding
    }

    /// The info of a model class (`ModelClass.of`), remembering the last one asked for: the
    /// calls that name a class (`objects`, `object(ofType:forPrimaryKey:)`, `add`) tend to
    /// name the same one again, and the process-wide table takes a lock.
    func modelClass(_ type: ObjectBase.Type) throws -> ModelClass {
        try lazily { try bindings.modelClass(type) }
    }

    /// Runs `body`, which makes bindings or looks up classes: under the frozen snapshot's lock
    /// on a frozen instance (any thread may read one), as is on a live one.
    @inline(__always)
    private func lazily<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        guard let frozenSnapshot else { return try body() }
        return try frozenSnapshot.exclusively(body)
    }

    /// The binding of a model class inside a write, adding the class to the file if needed.
    func bindingForWrite(_ info: ModelClass) throws -> TableBinding {
        checkWrite()
        if let b = try binding(for: info) { return b }
        try translatingErrors(path: path) {
            let txn = try transaction()
            try txn.store(classes: try ModelClass.withLinkTargets([info]).filter { txn.schema.classes[$0.name] == nil }.map { try txn.meta.freshIDs($0.schema) })
        }
        return try binding(for: info)!
    }

    /// Traps for an object whose row its lookup did not find: deleted, unless the file still
    /// knows the object (it named the object in this snapshot, with nothing written since, as
    /// `namedInThisSnapshot` says; a walk over the table meets it; or a link or list holds
    /// it): the file is damaged then.
    func trapMissingRow(_ binding: TableBinding, _ key: ObjectKey, namedInThisSnapshot: Bool = false) -> Never {
        let name = binding.info.name
        let damaged: Bool
        do { damaged = try namedInThisSnapshot || transaction().rows.isKnownWithoutRow(binding.table, key) } catch { trapReading(error) }
        if damaged {
            preconditionFailure("'\(path)' is damaged: the row of '\(name)' object \(key) cannot be found, but the file still refers to it; run `strata check \(path)`")
        }
        preconditionFailure("Object has been deleted or invalidated: '\(name)' object no longer exists in the Realm")
    }

    /// The row of object `key`, or nil if it no longer exists.
    @inline(__always)
    func row(_ binding: TableBinding, _ key: ObjectKey) throws -> RowView? {
        try transaction().rows.read(binding.table, key)
    }

    /// A managed accessor for stored object `key`, given its row when the caller has it (in
    /// `block` when a cursor decrypted it there).
    func object<T: ObjectBase>(_ type: T.Type, _ binding: TableBinding, _ key: ObjectKey, row: RowView? = nil,
                               block: DecryptedRecords? = nil) -> T {
        let object = (binding.info.type as ObjectBase.Type).init()
        object.attach(self, binding, key, row: row, block: block)
        return unsafeDowncast(object, to: T.self)
    }
}
