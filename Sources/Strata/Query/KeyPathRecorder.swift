import StrataStorage
import Synchronization

/// Maps a Swift key path (`\Dog.age`) to the `@Persisted` property it reads, without names.
///
/// A recorder is a fresh instance of the class whose `@Persisted` fields all carry their
/// declaration index (as `ObjectBase.attach` writes them) but which has no Realm. Reading a
/// key path on it runs the property's accessor, which finds a managed index and calls
/// `ObjectBase._managedValue`; with no Realm, that call lands in `recordRead`, which notes
/// the index and returns null (read by the accessor as the type's default). Each key path is
/// recorded once per process and cached, so `where { … }` pays a dictionary lookup per
/// property mentioned.
///
/// Key paths through links record one step per class: `$0.owner.name` is two member
/// lookups, `\Dog.owner` recorded on a `Dog`, then `\Person.name` on a `Person`. A link read
/// by a recorder is nil and an inverse relationship an empty `LinkingObjects`; while a path
/// through links is read (`readPath`), they hold recorders of their targets instead.
enum KeyPathRecorder {
    private static let lock = Mutex(())
    /// Declaration index by key path (key paths include their root type).
    nonisolated(unsafe) private static var cache: [AnyKeyPath: Int] = [:]
    /// The indexes read during the current recording (written under `lock`).
    nonisolated(unsafe) private static var reads: [Int] = []

    /// The declaration index of the `@Persisted` property that `keyPath` reads. Traps, as
    /// RealmSwift does, when it reads no stored property or more than one.
    static func declarationIndex<Root: ObjectBase, V>(of keyPath: KeyPath<Root, V>, in info: ModelClass) -> Int {
        lock.withLock { _ in record(keyPath, in: info) }
    }

    /// `declarationIndex(of:in:)`, under `lock`.
    private static func record<Root: ObjectBase, V>(_ keyPath: KeyPath<Root, V>, in info: ModelClass) -> Int {
        if let index = cache[keyPath] { return index }
        let recorded = reads(on: Root.self, in: info) { _ = $0[keyPath: keyPath as AnyKeyPath] }
        guard recorded.count == 1 else {
            let what = recorded.isEmpty ? "reads no @Persisted property"
                : "reads \(recorded.count) @Persisted properties (\(recorded.map { name(of: $0, in: info) }.joined(separator: ", ")))"
            fatalError("Invalid query: the key path \(keyPath) of '\(info.name)' \(what); a query needs exactly one")
        }
        cache[keyPath] = recorded[0]
        return recorded[0]
    }

    /// The stored properties that `keyPath` (from `root`, the class of `info`) reads, as a
    /// path through links: `\Person.address?.city` reads `["address", "city"]`,
    /// `\Person.dogs[0].name` reads `["dogs", "name"]`, `\Person.lastName.uppercased` reads
    /// `["lastName"]`; empty when it reads none. For this recording a link reads as a recorder
    /// of its target class, not nil, and a list or set of objects as holding one. Not cached.
    static func readPath(of keyPath: AnyKeyPath, on root: ObjectBase.Type, in info: ModelClass) -> [String] {
        readPath(on: root, in: info) { object in
            // A box (`let age = RealmProperty<Int?>()`) or a `let` collection is the property
            // itself: reaching it reads nothing, so the property it stands for is noted here.
            let reached = object[keyPath: keyPath]
            if let box = reached as? AttachedBox, let index = box.attachedIndex { _ = recordRead(index, of: object) }
            if let collection = reached as? AnyObject, let field = fieldCollections[ObjectIdentifier(collection)] {
                _ = recordRead(field.index, of: field.owner)
            }
        }
    }

    /// The stored properties that `read` reads of a recorder of `root` (the class of `info`),
    /// as a path through to-one links, as `readPath(of:on:in:)`.
    static func readPath(on root: ObjectBase.Type, in info: ModelClass, _ read: (ObjectBase) -> Void) -> [String] {
        lock.withLock { _ in
            followsLinks = true
            defer { followsLinks = false; path = []; fieldCollections = [:]; fieldElements = [:] }
            _ = reads(on: root, in: info, read)
            return path
        }
    }

    /// The string key paths observers take for Swift key paths from `Root`, through to-one
    /// links (`\Dog.owner?.name` is "owner.name"). Traps for a key path that reads no stored
    /// property (a computed property over none).
    static func observedPaths<Root: ObjectBase>(_ keyPaths: [PartialKeyPath<Root>]) -> [String] {
        let info = ModelClass.forType(Root.self)
        return keyPaths.map { keyPath in
            let path = readPath(of: keyPath, on: Root.self, in: info)
            precondition(!path.isEmpty, "Key path \(keyPath) reads no persisted property of '\(info.name)'")
            return path.joined(separator: ".")
        }
    }

    /// The declaration indexes of the properties that `read` reads of a recorder of `root`
    /// (the class of `info`), in order. Not cached.
    static func recordedReads(on root: ObjectBase.Type, in info: ModelClass, _ read: (ObjectBase) -> Void) -> [Int] {
        lock.withLock { _ in reads(on: root, in: info, read) }
    }

    /// `recordedReads(on:in:_:)`, under `lock`.
    private static func reads(on root: ObjectBase.Type, in info: ModelClass, _ read: (ObjectBase) -> Void) -> [Int] {
        let recorder = makeRecorder(root, info)
        reads = []
        recording = info
        read(recorder)
        recording = nil
        defer { reads = [] }
        return reads
    }

    /// A recorder of class `type` (whose model is `info`): every `@Persisted` field carries
    /// its declaration index, and there is no Realm. While `followsLinks`, each `let`
    /// collection (`let dogs = List<Dog>()`) is noted as its property and, of objects, holds
    /// one recorder of its class, as each `let` inverse relationship does of its origin
    /// class, unless `withElements` is false (an element's own `let` collections stay empty:
    /// a model may hold a list of its own class).
    private static func makeRecorder(_ type: ObjectBase.Type, _ info: ModelClass, withElements: Bool = true) -> ObjectBase {
        let recorder = type.init()
        let base = Unmanaged.passUnretained(recorder).toOpaque()
        for (offset, index) in info.managedFields {
            (base + offset).storeBytes(of: index, as: Int32.self)
        }
        for boxed in info.boxedFields {
            boxed.field.attachBox(at: base + boxed.offset, to: recorder, index: boxed.index)
            guard followsLinks, let field = boxed.field as? any CollectionField.Type,
                  let collection = field.instance(at: base + boxed.offset) as? any CollectionField else { continue }
            fieldCollections[ObjectIdentifier(collection)] = (recorder, boxed.index)
            guard withElements, let target = info.properties[boxed.index].linkTarget else { continue }
            let element = makeRecorder(target, ModelClass.forType(target), withElements: false)
            fieldElements[ObjectIdentifier(element)] = (info, boxed.index)
            collection.replaceContents(with: holding(_StrataValue(.link(0), object: element), isMap: info.properties[boxed.index].schema.isMap))
        }
        if followsLinks && withElements {
            for (position, inverse) in info.linkingObjects.enumerated() {
                guard let field = inverse.field else { continue }
                let element = makeRecorder(inverse.origin, ModelClass.forType(inverse.origin), withElements: false)
                fieldElements[ObjectIdentifier(element)] = (info, info.properties.count + position)
                field.record(at: base + inverse.offset, element: element)
            }
        }
        return recorder
    }

    /// A collection value holding `element` alone (a map's under the key "").
    private static func holding(_ element: _StrataValue, isMap: Bool) -> _StrataValue {
        _StrataValue(.null, collection: isMap ? MapContents(keys: [""], values: [element]) as Any : [element])
    }

    /// The class being recorded (written under `lock`): the root class, or with
    /// `followsLinks` the target class of the link read last.
    nonisolated(unsafe) private static var recording: ModelClass?
    /// Whether a link read gives a recorder of its target (`readPath`), under `lock`.
    nonisolated(unsafe) private static var followsLinks = false
    /// The names read while `followsLinks`, under `lock`.
    nonisolated(unsafe) private static var path: [String] = []
    /// While `followsLinks`, the `let` collections of the recorders made, by identity: their
    /// recorder and property (under `lock`).
    nonisolated(unsafe) private static var fieldCollections: [ObjectIdentifier: (owner: ObjectBase, index: Int)] = [:]
    /// While `followsLinks`, the recorders held by `let` collections of objects, by identity:
    /// the class and property of the collection (under `lock`). The collection is read
    /// directly, so the path learns of it when its element is read.
    nonisolated(unsafe) private static var fieldElements: [ObjectIdentifier: (owner: ModelClass, index: Int)] = [:]

    /// Called by a recorder's accessor (`object`'s): notes the property read and returns
    /// null (for a link: nil, or a recorder of its target while `followsLinks`; for an
    /// inverse relationship: an empty, unmanaged `LinkingObjects`, or one holding a recorder
    /// of its origin class while `followsLinks`).
    static func recordRead(_ index: Int, of object: ObjectBase) -> _StrataValue {
        if let field = fieldElements.removeValue(forKey: ObjectIdentifier(object)) {
            reads.append(field.index)
            path.append(name(of: field.index, in: field.owner))
            recording = ModelClass.forType(type(of: object))
        }
        reads.append(index)
        guard let info = recording else { return _StrataValue(.null) }
        if followsLinks {
            path.append(name(of: index, in: info))
            if index < info.properties.count, let target = info.properties[index].linkTarget {
                let targetInfo = ModelClass.forType(target)
                recording = targetInfo
                let element = _StrataValue(.link(0), object: makeRecorder(target, targetInfo))
                // A list, set or map reads as holding one recorder, so `\.dogs[0].name` (or
                // `first?.name`, `\.pets[""]??.name`) reads on, as "dogs.name".
                let schema = info.properties[index].schema
                return schema.isList || schema.isMap ? holding(element, isMap: schema.isMap) : element
            }
        }
        if index >= info.properties.count, index - info.properties.count < info.linkingObjects.count {
            let inverse = info.linkingObjects[index - info.properties.count]
            // The access of an inverse relationship is a `LinkingObjects` type, the only
            // `LinkingObjectsAccess`, which is also `LinkingObjectsTyped`.
            let type = inverse.access as! LinkingObjectsTyped.Type
            guard followsLinks else { return _StrataValue(.null, collection: type.unmanaged(originProperty: inverse.originProperty)) }
            let originInfo = ModelClass.forType(inverse.origin)
            recording = originInfo
            return _StrataValue(.null, collection: type.recording(originProperty: inverse.originProperty,
                                                                  element: makeRecorder(inverse.origin, originInfo)))
        }
        return _StrataValue(.null)
    }

    /// The name of the property with declaration index `index` (inverse relationships
    /// follow the stored properties).
    static func name(of index: Int, in info: ModelClass) -> String {
        index < info.properties.count ? info.properties[index].name : info.linkingObjects[index - info.properties.count].name
    }
}

/// The name of the persisted property (through to-one links, "owner.name") that `keyPath`
/// reads, as string-based APIs take it (RealmSwift's `_name(for:)`).
public func _name<T: ObjectBase>(for keyPath: PartialKeyPath<T>) -> String {
    KeyPathRecorder.observedPaths([keyPath])[0]
}

extension ObjectBase {
    /// The name of the persisted property `keyPath` reads, as the global `_name(for:)`.
    public static func _name<T: ObjectBase>(for keyPath: PartialKeyPath<T>) -> String {
        Strata._name(for: keyPath)
    }
}
