import Foundation
import StrataStorage

/// An opaque token returned by every `observe` call. Delivery stops after `invalidate()`
/// (or when the token is deallocated).
open class NotificationToken: NSObject {
    /// Stops delivery to the observer this token stands for.
    open func invalidate() {}
}

extension Realm {
    /// Runs `block` in a write transaction and commits it: one LMDB commit, durable when this
    /// returns. If `block` throws, nothing it did is kept and the error is rethrown. Throws
    /// `.fileAccess` on a read-only Realm and `.outOfDiskSpace` when the disk is full.
    /// Nested writes trap, as in RealmSwift. Asynchronous writes queued on this Realm
    /// (`writeAsync`) are committed first, so the block sees them.
    @discardableResult
    ///
    /// Observers whose tokens are in `tokens` are not told about this commit (they first hear
    /// of any earlier change not yet delivered to them, before `block` runs).
    public func write<Result>(withoutNotifying tokens: [NotificationToken] = [],
                              _ block: (() throws -> Result)) throws -> Result {
        try write(description: nil, skipping: tokens, block)
    }

    /// Strata: `write` whose history entry carries `description` (shown by `strata log`).
    @discardableResult
    public func write<Result>(withDescription description: String?, _ block: (() throws -> Result)) throws -> Result {
        try write(description: description, skipping: [], block)
    }

    private func write<Result>(description: String?, skipping tokens: [NotificationToken],
                               _ block: (() throws -> Result)) throws -> Result {
        try checkWritable()
        core.confinement.check()
        precondition(!core.writes.isInWriteTransaction, "The Realm is already in a write transaction: nested write blocks are not allowed")
        try beginSynchronousWrite()
        if !tokens.isEmpty { core.notifications.catchUp(tokens, core) }
        let result: Result
        do {
            result = try block()
        } catch {
            if core.writes.isInWriteTransaction { core.writes.cancel(core) }
            throw error
        }
        if core.writes.isInWriteTransaction {
            try core.writes.commit(core, description: description, skipping: tokens)
        }
        return result
    }

    /// Begins a write transaction (waiting for any other writer, in any process). Traps on a
    /// read-only Realm or when already in a write; `write {}` throws instead. Queued
    /// asynchronous writes are committed first.
    public func beginWrite() {
        do {
            try checkWritable()
            core.confinement.check()
            try beginSynchronousWrite()
        } catch { trap(error) }
    }

    /// Begins a write on this thread: queued asynchronous writes commit first, and observers
    /// waiting for their `.initial` hear it, of the Realm as it was before the write.
    private func beginSynchronousWrite() throws {
        // An asynchronous write block that committed or cancelled writes again.
        if core.writes.holdsGroup && !core.writes.isInWriteTransaction { return try core.writes.reopenBlock(core) }
        if !core.writes.isInWriteTransaction {
            core.writes.runBeforeSynchronousWrite(core)
            core.notifications.deliverInitials(core)
        }
        try core.writes.begin(core)
    }

    /// Commits the write transaction begun by `beginWrite()`. Inside an asynchronous write
    /// block, it ends the block's part: the changes become durable with the block's group.
    /// Observers whose tokens are in `tokens` are not told about this commit (nor about
    /// earlier changes not yet delivered to them when it commits).
    public func commitWrite(withoutNotifying tokens: [NotificationToken] = []) throws {
        try core.writes.commit(core, skipping: core.writes.holdsGroup ? [] : tokens)
    }

    /// Abandons the write transaction: every change made in it is discarded (inside an
    /// asynchronous write block, when the block returns).
    public func cancelWrite() { core.writes.cancel(core) }

    /// Whether a write transaction is open on this Realm.
    public var isInWriteTransaction: Bool {
        core.confinement.check()
        return core.writes.isInWriteTransaction
    }

    func checkWritable() throws {
        precondition(!core.isFrozen, "Can't perform transactions on a frozen Realm")
        if core.configuration.readOnly {
            throw Error(.fileAccess, "Cannot write to '\(core.path)': the Realm was opened read-only", path: core.path)
        }
    }

    // MARK: Adding and creating

    /// How `add` and `create` treat an existing object with the same primary key.
    @frozen public enum UpdatePolicy: Int {
        /// A duplicate primary key is an error.
        case error = 1
        /// Update only properties whose value differs.
        case modified = 3
        /// Overwrite every property.
        case all = 2
    }

    /// Adds an unmanaged object; it becomes managed by this Realm. Traps on a duplicate
    /// primary key (with `.error`) or outside a write; `throwingAdd` throws instead.
    public func add(_ object: Object, update: UpdatePolicy = .error) {
        do { try throwingAdd(object, update: update) } catch { trap(error) }
    }

    /// Adds each object of a sequence (see `add(_:update:)`).
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy = .error) where S.Iterator.Element: Object {
        for object in objects { add(object, update: update) }
    }

    /// Creates (or with a primary key and `update`, updates) an object from a dictionary,
    /// an array or another object, and returns it managed. Traps on a bad value;
    /// `throwingCreate` throws instead.
    @discardableResult
    public func create<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) -> T {
        do { return try throwingCreate(type, value: value, update: update) } catch { trap(error) }
    }

    // MARK: Deleting

    /// Deletes a managed object. Other accessors of it become invalidated.
    public func delete(_ object: ObjectBase) {
        core.checkWrite()
        guard let binding = object.binding, object.managingCore != nil else {
            fatalError("Can only delete an object from the Realm it belongs to: the object is unmanaged")
        }
        guard object.managingCore!.file === core.file else {
            fatalError("Can only delete an object from the Realm it belongs to")
        }
        do { try translatingErrors { _ = try core.transaction().objects.delete(binding.table, object.objectKey) } } catch { trap(error) }
    }

    /// Deletes every object of a sequence.
    public func delete<S: Sequence>(_ objects: S) where S.Iterator.Element: ObjectBase {
        for object in Array(objects) { delete(object) }
    }

    /// Deletes every object of a list (each once, even if it appears several times).
    public func delete<Element: ObjectBase>(_ objects: List<Element>) {
        var deleted = Set<ObjectKey>()
        for object in Array(objects) where deleted.insert(object.objectKey).inserted { delete(object) }
    }

    /// Deletes every object of the results (a whole class in one step when unfiltered).
    public func delete<Element: ObjectBase>(_ objects: Results<Element>) {
        core.checkWrite()
        if objects.isWholeTable, let binding = objects.binding {
            do { try translatingErrors { try core.transaction().objects.deleteAll(binding.table) } } catch { trap(error) }
            return
        }
        delete(Array(objects))
    }

    /// Deletes every object in the Realm, one step per class.
    public func deleteAll() {
        core.checkWrite()
        do {
            try translatingErrors {
                let txn = try core.transaction()
                for name in txn.schema.classes.keys.sorted() where core.manages(name) {
                    if let table = try txn.table(name) { try txn.objects.deleteAll(table) }
                }
            }
        } catch { trap(error) }
    }

    // MARK: Reading

    /// Every object of a class, as lazy, live results; for a `Projection` class, a projection
    /// of every object of its root class. Traps for an embedded class, as in RealmSwift: its
    /// objects are reached through their owners.
    public func objects<Element: RealmFetchable>(_ type: Element.Type) -> Results<Element> {
        core.confinement.check()
        guard let objectType = type as? ObjectBase.Type ?? (type as? ProjectionFactory.Type)?.rootClass else {
            fatalError("objects(_:) needs an Object subclass, not \(type)")
        }
        if objectType is EmbeddedObject.Type {
            fatalError("Querying embedded object type '\(objectType.className())' is not supported")
        }
        if objectType == Object.self {
            fatalError("Object type 'Object' is not managed by the Realm: objects(_:) needs a model class")
        }
        do { return Results(core: core, info: try core.modelClass(objectType)) } catch { trap(error) }
    }

    /// The object with primary key `key`, or nil. Traps if the class has no primary key or
    /// the key has the wrong type.
    public func object<Element: Object, KeyType>(ofType type: Element.Type, forPrimaryKey key: KeyType) -> Element? {
        core.confinement.check()
        let info: ModelClass
        do { info = try core.modelClass(type) } catch { trap(error) }
        do {
            // An `Int` key of an `Int` primary key needs no conversion (nor its dynamic casts),
            // nor a copy of the primary key's description.
            let value: StrataStorage.Value
            if KeyType.self == Int.self && info.hasInt64PrimaryKey {
                value = .int(Int64(unsafeBitCast(key, to: Int.self)))
            } else {
                guard let pk = info.primaryKey else { fatalError("'\(info.name)' does not have a primary key") }
                value = try ValueConversion.value(key, for: pk, className: info.name)
            }
            guard let binding = try core.binding(for: info) else { return nil }
            let table = binding.table
            if table.keysArePrimaryKeys, case .int(let i) = value {
                // The object key is the primary key: the existence check reads the row, which
                // the accessor then keeps.
                let objectKey = ObjectKeyCoding.key(forIntegerPrimaryKey: i)
                guard let row = try translatingErrors(path: core.path, { try core.transaction().rows.read(table, objectKey) }) else { return nil }
                return core.object(type, binding, objectKey, row: row)
            }
            guard let objectKey = try translatingErrors(path: core.path, { try core.transaction().indexes.objectKey(table, primaryKey: value) })
            else { return nil }
            return core.object(type, binding, objectKey)
        } catch { trap(error) }
    }
}

/// Types that `Realm.objects(_:)` can fetch.
public protocol RealmFetchable: RealmCollectionValue {
    /// The class's name in the schema.
    static func className() -> String
}
extension Object: RealmFetchable {}
