import Foundation
import StrataStorage

/// Where a managed list, set or map lives: its object, its property, and the Realm.
final class ListStore {
    let core: RealmCore
    /// The owner, held strongly unless the store is the one a collection in the owner's own
    /// field adopted (`let dogs = List<Dog>()`): that collection holds it, so the store holds
    /// the owner weakly, making no cycle, and reads through an accessor made again for the
    /// stored owner when the collection outlives it.
    private let heldOwner: ObjectBase?
    private weak var fieldOwner: ObjectBase?
    /// The owner's binding, to make an accessor of it again.
    private let ownerBinding: TableBinding
    /// The Realm's `invalidations` when the store was made: a later `invalidate()` invalidates
    /// the collection, whichever accessor of the owner it reads through.
    private let madeAtInvalidations: UInt32
    let ownerKey: ObjectKey
    /// The list property's declaration index in the owner's class; nil for a list reached by
    /// name through the dynamic API (`Object.dynamicList`), whose elements are `DynamicObject`s.
    let index: Int?
    let table: Table
    let property: PropertySchema
    /// For a list of objects, the element class and its binding.
    let targetInfo: ModelClass?
    let targetBinding: TableBinding?

    /// The list at declaration `index` of `owner`'s class; `inOwnersField`: for the collection
    /// `owner`'s field holds (see `heldOwner`).
    init(owner: ObjectBase, index: Int, inOwnersField: Bool = false) {
        heldOwner = inOwnersField ? nil : owner
        fieldOwner = inOwnersField ? owner : nil
        core = owner.managingCore!
        madeAtInvalidations = core.invalidations
        ownerKey = owner.objectKey
        self.index = index
        let binding = owner.binding!
        ownerBinding = binding
        table = binding.table
        property = binding.properties[index]
        let core = owner.managingCore!
        let target = binding.info.properties[index].linkTarget.map(ModelClass.forType)
        targetInfo = target
        targetBinding = core.reading { try target.flatMap { try core.binding(for: $0) } }
    }

    /// The stored list, set or map `property` of managed `owner`, its objects handed out as
    /// `DynamicObject`s (a collection of values has no objects: it counts, and changes as a
    /// whole, but its elements are not `DynamicObject`s).
    init(owner: ObjectBase, dynamicList property: PropertySchema) {
        heldOwner = owner
        let core = owner.managingCore!
        self.core = core
        madeAtInvalidations = core.invalidations
        ownerKey = owner.objectKey
        index = nil
        ownerBinding = owner.binding!
        table = ownerBinding.table
        self.property = property
        guard let target = property.linkTarget else {
            targetBinding = nil
            targetInfo = nil
            return
        }
        guard let binding = core.reading({ try core.dynamicBinding(named: target) }) else {
            preconditionFailure("The target class of '\(table.name).\(property.name)' is missing from the file")
        }
        targetBinding = binding
        targetInfo = binding.info
    }

    /// The object owning the collection.
    var owner: ObjectBase { heldOwner ?? fieldOwner ?? core.object(ObjectBase.self, ownerBinding, ownerKey) }

    /// Whether the Realm was invalidated since the store was made, or the owner deleted.
    var isInvalidated: Bool { core.invalidations != madeAtInvalidations || owner.isInvalidated }

    /// The list at declaration `index` of `owner`'s class or, for a nil `index`, the dynamic
    /// list `property` (for a list found again on another accessor of its object).
    convenience init(owner: ObjectBase, index: Int?, property: PropertySchema) {
        if let index { self.init(owner: owner, index: index) } else { self.init(owner: owner, dynamicList: property) }
    }

    /// Whether `other` is the same stored collection: the same property of the same object of
    /// the same file (through any Realm instance or accessor).
    func isSameCollection(as other: ListStore) -> Bool {
        core.file === other.core.file && ownerKey == other.ownerKey && property == other.property
    }

    /// The storage operations on this list, in the current transaction.
    struct Operations {
        let txn: StorageTransaction
        let store: ListStore
        func count() throws -> Int { try txn.lists.count(store.table, store.property, owner: store.ownerKey) }
        func values() throws -> [StrataStorage.Value] { try txn.lists.values(store.table, store.property, owner: store.ownerKey) }
        func value(at i: Int) throws -> StrataStorage.Value { try txn.lists.value(store.table, store.property, owner: store.ownerKey, at: i) }
        /// Inserts at `i`, or at the end when nil.
        func insert(_ values: [StrataStorage.Value], at i: Int?) throws { try txn.lists.insert(store.table, store.property, owner: store.ownerKey, values, at: i) }
        @discardableResult
        func remove(at i: Int) throws -> StrataStorage.Value { try txn.lists.remove(store.table, store.property, owner: store.ownerKey, at: i) }
        func replace(at i: Int, with v: StrataStorage.Value) throws { try txn.lists.replace(store.table, store.property, owner: store.ownerKey, at: i, with: v) }
        func move(from: Int, to: Int) throws { try txn.lists.move(store.table, store.property, owner: store.ownerKey, from: from, to: to) }
        func swapAt(_ i: Int, _ j: Int) throws { try txn.lists.swapAt(store.table, store.property, owner: store.ownerKey, i, j) }
        func removeAll() throws { try txn.lists.removeAll(store.table, store.property, owner: store.ownerKey) }
        func position(of v: StrataStorage.Value) throws -> (index: Int, isMember: Bool) { try txn.lists.position(of: v, in: store.table, store.property, owner: store.ownerKey) }
        func contains(_ v: StrataStorage.Value) throws -> Bool { try txn.lists.contains(v, in: store.table, store.property, owner: store.ownerKey) }
        func insertMember(_ v: StrataStorage.Value) throws { try txn.lists.insertMember(store.table, store.property, owner: store.ownerKey, v) }
        func removeMember(_ v: StrataStorage.Value) throws { try txn.lists.removeMember(store.table, store.property, owner: store.ownerKey, v) }
        func keys() throws -> [String] { try txn.lists.mapKeys(store.table, store.property, owner: store.ownerKey) }
        func value(forKey k: String) throws -> StrataStorage.Value? { try txn.lists.mapValue(store.table, store.property, owner: store.ownerKey, forKey: k) }
        func setValue(_ v: StrataStorage.Value, forKey k: String) throws { try txn.lists.setMapValue(store.table, store.property, owner: store.ownerKey, v, forKey: k) }
        func removeValue(forKey k: String) throws { try txn.lists.removeMapValue(store.table, store.property, owner: store.ownerKey, forKey: k) }
    }

    /// Runs a read; traps on a storage error (as RealmSwift does) or a deleted owner.
    func read<T>(_ body: (Operations) throws -> T) -> T {
        core.confinement.check()
        _ = owner.currentRow()
        return core.reading { try body(Operations(txn: try core.transaction(), store: self)) }
    }

    /// Runs a change inside the current write transaction; traps on an error (as RealmSwift
    /// does), so a failed change never commits.
    func write(_ body: (Operations) throws -> Void) {
        core.checkWrite()
        _ = owner.currentRow()
        do {
            try translatingErrors(path: core.path) { try body(Operations(txn: try core.transaction(), store: self)) }
        } catch { trap(error) }
    }

    /// The Swift element of a stored value (an object for a link).
    func element<Element>(_ value: StrataStorage.Value) -> Element {
        var converted = _StrataValue(value)
        if case .link(let key) = value, let targetBinding {
            converted = _StrataValue(value, object: core.object(ObjectBase.self, targetBinding, key))
        } else if case .typedLink(let className, let key) = value {
            converted = _StrataValue(value, object: core.heldObject(className, key))
        }
        return (Element.self as! any _Persistable.Type)._strataFrom(converted) as! Element
    }

    /// The stored value of an element to write: an object becomes its key, an unmanaged one
    /// being added to the Realm first (with its graph).
    func storedValue<E>(of element: E) throws -> StrataStorage.Value {
        let v = (element as! any _Persistable)._strataValue
        guard let object = v.object else { return v.value }
        return try core.storedLink(to: object, in: property)
    }

    /// The stored value of an element to look for; nil for an object not in this Realm.
    func existingValue<E>(of element: E) -> StrataStorage.Value? {
        let v = (element as! any _Persistable)._strataValue
        guard let object = v.object else { return v.value }
        guard object.managingCore?.file === core.file else { return nil }
        return core.existingLink(to: object, in: property)
    }
}

extension ObjectBase {
    /// Replaces the contents of managed list property `index` (an assignment to it).
    func replaceList(_ index: Int, with elements: [_StrataValue]) {
        let core = managingCore!
        let store = ListStore(owner: self, index: index)
        store.write { list in
            let values = try elements.map { try $0.object.map { try core.storedLink(to: $0, in: store.property) } ?? $0.value }
            try list.removeAll()
            try list.insert(values, at: 0)
        }
    }

    /// Replaces the contents of managed map property `index` (an assignment to it).
    func replaceMap(_ index: Int, with contents: MapContents) {
        let store = ListStore(owner: self, index: index)
        store.write { map in
            try map.removeAll()
            for (k, v) in zip(contents.keys, contents.values) {
                try map.setValue(try v.object.map { try store.core.storedLink(to: $0, in: store.property) } ?? v.value, forKey: k)
            }
        }
    }
}
