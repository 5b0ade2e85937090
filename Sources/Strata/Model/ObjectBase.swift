import Foundation
import StrataStorage

/// Root of every persisted class (RealmSwift's `ObjectBase`). An `NSObject` subclass so that
/// models get `Hashable`, `Equatable` and `description` as they do with RealmSwift.
///
/// Holds the managed state: the Realm, the class's table binding, the object key, and the
/// row last read (reused until the Realm's snapshot or write count moves on).
open class ObjectBase: NSObject {
    @exclusivity(unchecked) var managingCore: RealmCore?
    @exclusivity(unchecked) var binding: TableBinding?
    @exclusivity(unchecked) var objectKey: ObjectKey = 0
    /// The core's `invalidations` when this accessor was attached.
    @exclusivity(unchecked) private var attachedInvalidations: UInt32 = 0
    /// The row last read and the Realm stamp it was read at.
    @exclusivity(unchecked) private var cachedRow: (stamp: UInt64, row: RowView)?
    /// The Realm stamp at which the accessor was handed out without its row, the file naming
    /// the object (a link, a list, an index or a query's keys): a row missing at that same
    /// stamp, with nothing written since, means the file names an object it does not hold.
    @exclusivity(unchecked) private var namedAt: UInt64 = .max
    /// On an encrypted file, the block of decrypted rows `cachedRow` lies in when it came from
    /// a loop's cursor (`RowCursor`), held so that the cursor does not reuse it; nil otherwise.
    @exclusivity(unchecked) private var cachedRowBlock: DecryptedRecords?
    /// The accessor the last follow of a link property handed out (`followLink`): made at the
    /// first follow, so that an accessor that follows none carries one reference, not the
    /// recycler.
    @exclusivity(unchecked) private var followed: FollowedLink?
    /// The managed lists, sets and maps this accessor handed out, so that every read of a
    /// property gives the same one (`object.list === object.list`, as in RealmSwift): made at
    /// the first, for the object `objectKey` was then.
    @exclusivity(unchecked) private var collections: HandedOutCollections?

    public required override init() { super.init() }

    /// Whether the object was deleted or its Realm was invalidated.
    open var isInvalidated: Bool {
        guard let core = managingCore, let binding else { return false }
        core.confinement.check()
        if attachedInvalidations != core.invalidations { return true }
        return core.reading {
            // Read through the class's binding now: a cancelled write that created the class's
            // table took the table, and the binding the object was attached with, away.
            let info = binding.info
            guard let current = try info.isDynamic ? core.dynamicBinding(named: info.name) : core.binding(for: info) else { return true }
            return try core.row(current, objectKey) == nil
        }
    }

    /// The unqualified class name used as the default schema name ("Dog" for `MyApp.Dog`).
    open class func className() -> String {
        let full = String(describing: self)
        return full.split(separator: ".").last.map(String.init) ?? full
    }

    /// RealmSwift's hook to persist a class under a different schema name.
    open class func _realmObjectName() -> String? { nil }
    /// RealmSwift's hook to leave a class out of the default schema (the classes a
    /// configuration without `objectTypes` stores): a model kept only for a test or for one
    /// file's configuration.
    open class func _realmIgnoreClass() -> Bool { false }

    /// RealmSwift's hook from before `@Persisted`: the name of the primary key property
    /// (`@Persisted(primaryKey: true)` declares one too).
    open class func primaryKey() -> String? { nil }
    /// Names to store properties under, by property name (RealmSwift's custom column names:
    /// `["firstName": "first_name"]`). Code, queries, key-value coding, notifications and the
    /// dynamic API use the property names; the file, migration blocks and the `strata` tool
    /// the stored ones.
    open class func propertiesMapping() -> [String: String] { [:] }
    /// RealmSwift's older hook for the same names: overriding it (`-> [String: String]`)
    /// maps the properties as `propertiesMapping()` does; by default it is that mapping.
    open class func _realmColumnNames() -> [String: String]? { propertiesMapping() }
    /// The schema of this class, as the code declares it (RealmSwift's `sharedSchema()`);
    /// nil for the base classes, which are not models.
    open class func sharedSchema() -> ObjectSchema? { nil }
    /// RealmSwift's hook from before `@Persisted`: properties not to store (plain `var`s
    /// never are).
    open class func ignoredProperties() -> [String] { [] }
    /// RealmSwift's hook from before `@Persisted`: properties to index
    /// (`@Persisted(indexed: true)` declares one too).
    open class func indexedProperties() -> [String] { [] }

    // MARK: Key-value coding (RealmSwift's, which NSObject gives it)

    /// The model object this is (every model class is an `Object`), for key-value coding.
    private var model: Object {
        guard let object = self as? Object else { preconditionFailure("Key-value coding needs an Object") }
        return object
    }

    /// Sets a property by name (key-value coding, as RealmSwift's `setValue(_:forKey:)`).
    open func setValue(_ value: Any?, forKey key: String) { model[key] = value }

    /// Reads a property by name (key-value coding, as RealmSwift's `value(forKey:)`).
    open func value(forKey key: String) -> Any? { model[key] }

    /// What reading a key that names no property gives: a trap, as Foundation's
    /// `NSUndefinedKeyException` (a `DynamicObject` reads it by name instead).
    open func value(forUndefinedKey key: String) -> Any? {
        fatalError("[\(type(of: self)) valueForUndefinedKey:]: this class is not key value coding-compliant for the key \(key).")
    }

    /// What setting a key that names no property does: a trap, as Foundation's (a
    /// `DynamicObject` sets it by name instead).
    open func setValue(_ value: Any?, forUndefinedKey key: String) {
        fatalError("[\(type(of: self)) setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key \(key).")
    }

    /// Reads the value at a dotted key path, as key-value coding does: through to-one links
    /// (`"owner.name"`, nil when a link on the way is nil) and collections (`"dogs.name"`,
    /// the value of each element).
    open func value(forKeyPath keyPath: String) -> Any? {
        guard let dot = keyPath.firstIndex(of: ".") else { return model[keyPath] }
        let rest = String(keyPath[keyPath.index(after: dot)...])
        switch ValueConversion.flatten(model[String(keyPath[..<dot])]) {
        case let object as ObjectBase: return object.value(forKeyPath: rest)
        case let collection as any RealmCollection: return collection.value(forKeyPath: rest)
        default: return nil
        }
    }

    /// Sets the value at a dotted key path (`"owner.name"`): the last property of the object
    /// the path's links reach (inside a write for a managed object). Traps when a link on
    /// the way is nil or the path does not name properties.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) {
        guard let dot = keyPath.lastIndex(of: ".") else { return model[keyPath] = value }
        let path = String(keyPath[..<dot])
        guard let owner = ValueConversion.flatten(self.value(forKeyPath: path)) as? Object else {
            fatalError("Cannot set '\(keyPath)': '\(path)' is not an object (a nil link, or not a link)")
        }
        owner[String(keyPath[keyPath.index(after: dot)...])] = value
    }

    /// Makes this instance the accessor of stored object `key`.
    func attach(_ core: RealmCore, _ binding: TableBinding, _ key: ObjectKey, row: RowView? = nil, block: DecryptedRecords? = nil) {
        reattach(core, binding, key, row: row, block: block)
        let base = Unmanaged.passUnretained(self).toOpaque()
        let info = binding.info
        for (offset, index) in info.managedFields {
            (base + offset).storeBytes(of: index, as: Int32.self)
        }
        for boxed in info.boxedFields { boxed.field.attachBox(at: base + boxed.offset, to: self, index: boxed.index) }
        for inverse in info.inverseFields { inverse.field!.attach(at: base + inverse.offset, core: core, inverse, target: key) }
    }

    /// Makes this accessor, attached before to an object of the same class, the accessor of
    /// stored object `key` instead (`AccessorRecycler`); `attach` without the field indexes,
    /// which the class fixes. `row` is the object's row when the caller has it (lying in
    /// `block` when a cursor decrypted it there).
    @inline(__always)
    func reattach(_ core: RealmCore, _ binding: TableBinding, _ key: ObjectKey, row: RowView?, block: DecryptedRecords? = nil) {
        // Compared first: a loop reattaches to the same core and binding, and assigning them
        // would count references on every object.
        if managingCore !== core {
            managingCore = core
            collections = nil
        }
        if self.binding !== binding {
            self.binding = binding
            collections = nil
        }
        move(to: key, in: core, binding, row: row, block: block)
    }

    /// Makes this accessor, attached to an object of `binding`'s table in `core`, the accessor
    /// of that table's object `key` instead: `reattach` for a caller that knows the core and
    /// binding are already this accessor's, so that nothing is compared or counted.
    @inline(__always)
    func move(to key: ObjectKey, in core: RealmCore, _ binding: TableBinding, row: RowView?, block: DecryptedRecords? = nil) {
        objectKey = key
        attachedInvalidations = core.invalidations
        if let row {
            cachedRow = (core.snapshot.stamp, row)
            // Compared first: on a plain file both are nil, and assigning would count references.
            if block !== cachedRowBlock { cachedRowBlock = block }
        } else {
            dropOrFetchRow(core, binding, key)
        }
    }

    /// `reattach` without a row: a frozen object fetches its row now, any other drops the row
    /// of the object it was (the next read fetches its own).
    private func dropOrFetchRow(_ core: RealmCore, _ binding: TableBinding, _ key: ObjectKey) {
        if core.isFrozen, let row = core.reading({ try core.row(binding, key) }) {
            // A frozen object may be read by several threads at once: its row is fetched now,
            // before it is shared, so that reading it never writes the cache.
            cachedRow = (core.snapshot.stamp, row)
        } else {
            cachedRow = nil
        }
        cachedRowBlock = nil
        namedAt = core.snapshot.stamp
    }

    /// Whether a weak or unowned reference to this object exists (`isKnownUniquelyReferenced`
    /// counts only strong ones). Such a reference must keep seeing this object's data.
    var isReferencedWeakly: Bool {
        _getWeakRetainCount(self) > 1 || _getUnownedRetainCount(self) > 1
    }

    /// The current row of a managed object; traps if it was deleted (as Realm does).
    @inline(__always)
    func currentRow() -> RowView {
        // The core is used at +0 (no retain): this object holds it for the whole call.
        Unmanaged.passUnretained(managingCore!)._withUnsafeGuaranteedRef { core in
            core.confinement.check()
            let stamp = core.snapshot.stamp
            if let cached = cachedRow, cached.stamp == stamp { return cached.row }
            return fetchRow(core, stamp)
        }
    }

    /// `currentRow` when the row held is not the current one (kept out of line, so that every
    /// property read inlines only the check above): reads the row and holds it, or traps.
    @inline(never)
    private func fetchRow(_ core: RealmCore, _ stamp: UInt64) -> RowView {
        // `invalidate()` changes the stamp too, so this check costs nothing on the cached path.
        precondition(attachedInvalidations == core.invalidations, "Object has been deleted or invalidated: the Realm of this '\(binding!.info.name)' object was invalidated")
        let found: RowView?
        do { found = try core.row(binding!, objectKey) } catch { core.trapReading(error) }
        guard let row = found else { core.trapMissingRow(binding!, objectKey, namedInThisSnapshot: namedAt == stamp) }
        cachedRow = (stamp, row)
        if cachedRowBlock != nil { cachedRowBlock = nil }
        return row
    }

    /// Reads a managed property as its Swift type (called from `@Persisted`'s accessor, and
    /// inlined there so that the conversion is specialised for the property's type).
    @inlinable
    func _managedGet<V: _Persistable>(_ index: Int, as type: V.Type) -> V {
        V._strataRead(self, index)
    }

    /// The row slot of managed property `index`, when its value is stored in the row (not a
    /// list, not an inverse relationship); nil otherwise, and for an unmanaged object.
    @inline(__always)
    private func rowSlot(_ index: Int) -> Slot? {
        guard binding != nil else { return nil }
        // Borrowed, not retained: this object holds its binding for the whole call.
        unowned(unsafe) let binding = binding!
        guard _fastPath(index < binding.slots.count) else { return nil }
        let slot = binding.slots[index]
        return _fastPath(!slot.isList) ? slot : nil
    }

    /// A managed property's slot in its current row, when the slot is stored in the row, is
    /// of a type `isOfType` accepts and holds no null; nil otherwise (the caller then reads a
    /// `Value`). For the typed reads below, which skip building a `Value`.
    @inline(__always)
    private func plainSlot(_ index: Int, isOfType: (StrataStorage.PropertyType) -> Bool) -> (row: RowView, id: Int)? {
        guard let slot = rowSlot(index), isOfType(slot.type) else { return nil }
        let row = currentRow()
        guard !row.isNull(slot.id), !slot.isOptional || row.hasSlot(slot.id) else { return nil }
        return (row, slot.id)
    }

    /// An int property read straight from its slot (an absent slot reads 0, its default), or
    /// nil when it is not a plain stored int.
    @usableFromInline
    func _managedInt(_ index: Int) -> Int64? {
        guard let (row, id) = plainSlot(index, isOfType: { if case .int = $0 { true } else { false } }) else { return nil }
        return row.int(id)
    }

    /// A double property read straight from its slot, or nil (see `_managedInt`).
    @usableFromInline
    func _managedDouble(_ index: Int) -> Double? {
        guard let (row, id) = plainSlot(index, isOfType: { if case .double = $0 { true } else { false } }) else { return nil }
        return row.double(id)
    }

    /// A string property read straight from its slot (an absent slot reads ""), or nil (see
    /// `_managedInt`).
    @usableFromInline
    func _managedString(_ index: Int) -> String? {
        guard let (row, id) = plainSlot(index, isOfType: { if case .string = $0 { true } else { false } }) else { return nil }
        return StoredString.decode(row.slotBytes(id))
    }

    /// Reads a managed property's stored value: a value, a link's object, or a collection.
    @usableFromInline
    func _managedValue(_ index: Int) -> _StrataValue {
        // Unmanaged with a managed index: a key-path recorder (Query/KeyPathRecorder.swift).
        guard binding != nil else { return KeyPathRecorder.recordRead(index, of: self) }
        if let slot = rowSlot(index) {
            let value = currentRow().value(slot)
            switch value {
            case .link(let key): return _StrataValue(value, object: followLink(index, key))
            case .typedLink(let className, let key): return _StrataValue(value, object: managingCore!.heldObject(className, key))
            default: return _StrataValue(value)
            }
        }
        let binding = binding!
        let storedCount = binding.slots.count
        let info = binding.info
        _ = currentRow()  // traps if the object was deleted
        if index < storedCount { return _StrataValue(.null, collection: managedCollection(index, info.properties[index].listAccess!)) }
        let inverse = info.linkingObjects[index - storedCount]
        return _StrataValue(.null, collection: inverse.access.managed(core: managingCore!, inverse, target: objectKey))
    }

    /// The managed list, set or map of property `index`: the one handed out before while this
    /// accessor is still the same object's, else a new one, kept. Its store holds this accessor
    /// weakly (the accessor holds it), reading through a new accessor if it outlives this
    /// one. A frozen object, which threads read at once, makes a new one each time.
    private func managedCollection(_ index: Int, _ access: ListAccess.Type) -> AnyObject {
        let core = managingCore!
        guard !core.isFrozen else { return access.managed(ListStore(owner: self, index: index)) as AnyObject }
        if collections?.key != objectKey { collections = HandedOutCollections(key: objectKey) }
        if let kept = collections!.byIndex[index] { return kept }
        let made = access.managed(ListStore(owner: self, index: index, inOwnersField: true)) as AnyObject
        collections!.byIndex[index] = made
        return made
    }

    /// The accessor of object `key`, which link property `index` points at: the accessor the
    /// property's last follow handed out, moved to `key` when nothing else holds it (so that a
    /// loop following a link makes no accessor per object), else a new one. Only for a target
    /// class without relationships, whose accessors then keep no accessor of their own: walking
    /// a chain of links keeps no chain of accessors alive. A frozen object, which threads may
    /// read at once, always makes a new one.
    private func followLink(_ index: Int, _ key: ObjectKey) -> ObjectBase {
        let core = managingCore!
        let target = core.linkTarget(binding!, index)
        guard !core.isFrozen, !target.info.hasRelationships else { return core.object(ObjectBase.self, target, key) }
        if followed?.index != index { followed = FollowedLink(index, target.info) }
        return followed!.accessors.accessor(core, target, key, row: nil)
    }

    /// The inverse relationship at declaration index `index` of a managed object (`index`
    /// counts the stored properties first); nil for a key-path recorder, whose reads
    /// `_managedValue` notes.
    @usableFromInline
    func _managedLinkingObjects<Element>(_ index: Int, of _: Element.Type) -> LinkingObjects<Element>? {
        guard let binding else { return nil }
        _ = currentRow()  // traps if the object was deleted
        let inverse = binding.info.linkingObjects[index - binding.slots.count]
        return .managedCollection(core: managingCore!, inverse, target: objectKey)
    }

    /// Writes a managed property (called from `@Persisted`'s accessor).
    @usableFromInline
    func _managedSet<V: _Persistable>(_ value: V, _ index: Int) {
        setManagedValue(value._strataValue, index)
    }

    /// Writes a managed property; traps outside a write transaction or on a bad value. An
    /// unmanaged object assigned to a link is added to the Realm first (with its graph).
    func setManagedValue(_ value: _StrataValue, _ index: Int) {
        let core = managingCore!
        core.checkWrite()
        if binding!.properties[index].isList {
            if let map = value.collection as? MapContents { return replaceMap(index, with: map) }
            return replaceList(index, with: value.collection as? [_StrataValue] ?? [])
        }
        do {
            let property = binding!.properties[index]
            let stored = try value.object.map { try core.storedLink(to: $0, in: property) } ?? value.value
            // The row read since the last write is still the object's: no need to read it again.
            let current = cachedRow.flatMap { $0.stamp == core.snapshot.stamp ? $0.row : nil }
            try translatingErrors {
                try core.transaction().objects.update(binding!.table, objectKey, property, to: stored, current: current)
            }
        } catch { trap(error) }
    }

    /// As RealmSwift's: managed objects of a class with a primary key, or frozen ones, are
    /// equal when they are the same stored object (`isSameStoredObject`); other objects only
    /// to themselves (`isSameObject(as:)` compares stored objects).
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? ObjectBase else { return false }
        if other === self { return true }
        guard binding?.info.primaryKey != nil || managingCore?.isFrozen == true else { return false }
        return isSameStoredObject(other)
    }

    /// Whether `other` is this accessor or one of the same stored object, both live or both
    /// frozen at the same version (a frozen object is not its live one); an unmanaged object
    /// is only itself.
    func isSameStoredObject(_ other: ObjectBase) -> Bool {
        if other === self { return true }
        guard let a = binding, let b = other.binding, let ca = managingCore, let cb = other.managingCore else { return false }
        // Frozen Realms are shared per version: the same version is the same frozen core.
        let sameVersion = ca.isFrozen == cb.isFrozen && (ca.isFrozen ? ca === cb : ca.file === cb.file)
        // Classes compare by stored name: the dynamic API's, bound by each Realm, and two Swift
        // classes stored as one (`_realmObjectName()`).
        let sameClass = a.info === b.info || a.info.name == b.info.name
        return sameClass && sameVersion && objectKey == other.objectKey
    }

    open override var hash: Int {
        binding == nil ? ObjectIdentifier(self).hashValue : Int(truncatingIfNeeded: objectKey)
    }
}

/// The link property an accessor followed last and the accessors its follows hand out
/// (`ObjectBase.followLink`).
final class FollowedLink {
    /// The link property's declaration index.
    let index: Int
    @exclusivity(unchecked) var accessors: AccessorRecycler

    init(_ index: Int, _ target: ModelClass) {
        self.index = index
        accessors = AccessorRecycler(target)
    }
}

/// The managed collections an accessor handed out, by property index, for object `key`.
final class HandedOutCollections {
    let key: ObjectKey
    var byIndex: [Int: AnyObject] = [:]

    init(key: ObjectKey) { self.key = key }
}
