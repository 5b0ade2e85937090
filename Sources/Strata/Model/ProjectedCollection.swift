import Foundation

/// The values one key path reads from each object of a `List` or `MutableSet`, for a
/// projection (RealmSwift's `ProjectedCollection`): `@Projected(\Person.friends.projectTo.firstName)
/// var friendNames: ProjectedCollection<String>`. Live: it reads its collection on each
/// access, in the collection's order.
public struct ProjectedCollection<Element>: RandomAccessCollection, CustomStringConvertible, ThreadConfined
    where Element: RealmCollectionValue {
    public typealias Index = Int

    /// The collection and key path, behind their root type.
    private let source: ProjectedSource<Element>

    fileprivate init(_ source: ProjectedSource<Element>) { self.source = source }

    public var startIndex: Int { 0 }
    public var endIndex: Int { source.count }

    /// The value read from the object at `position`; setting it writes that object's
    /// property (inside a write), and traps when the key path is read-only.
    public subscript(position: Int) -> Element {
        get { source.element(at: position) }
        nonmutating set { source.set(newValue, at: position) }
    }

    /// The position of the first object whose projected value is `value`, or nil.
    public func index(of value: Element) -> Int? { firstIndex(of: value) }

    /// The position of the first object (not projected value) `predicate` accepts, or nil, as
    /// RealmSwift evaluates it (on Linux an `NSPredicate` is a constant or a block).
    public func index(matching predicate: NSPredicate) -> Int? {
        indices.first { predicate.evaluate(with: source.object(at: $0)) }
    }

    /// The Realm of the collection; nil when it is unmanaged.
    public var realm: Realm? { source.realm }
    /// Whether the collection's object was deleted or its Realm invalidated.
    public var isInvalidated: Bool { source.isInvalidated }
    /// Whether the collection belongs to a frozen Realm.
    public var isFrozen: Bool { source.isFrozen }

    /// The same projection of the frozen collection.
    public func freeze() -> ProjectedCollection { ProjectedCollection(source.frozen()) }
    /// The same projection of the live collection in this thread's Realm, or nil when it no
    /// longer exists there.
    public func thaw() -> ProjectedCollection? { source.thawed().map(ProjectedCollection.init) }

    /// The element type and each value on its own line, as RealmSwift writes it.
    public var description: String {
        let lines = enumerated().map { "\t[\($0.offset)] \($0.element)\n" }
        return "ProjectedCollection<\(Element.self)> {\n\(lines.joined())}"
    }

    /// Observes the underlying collection: `.initial`, then `.update` with the changed
    /// indices (of objects whose `keyPaths` changed, when given, else of any property).
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<ProjectedCollection>) -> Void) -> NotificationToken {
        source.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial(let source): block(.initial(ProjectedCollection(source)))
            case let .update(source, deletions, insertions, modifications):
                block(.update(ProjectedCollection(source), deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error): block(.error(error))
            }
        }
    }
}

/// Makes `ProjectedCollection`s from a collection of objects: `friends.projectTo.firstName`
/// (RealmSwift's `CollectionElementMapper`).
@dynamicMemberLookup
public struct CollectionElementMapper<Element> where Element: ObjectBase, Element: RealmCollectionValue {
    /// The collection mapped.
    let collection: AnyRealmCollection<Element>

    /// The values `member` reads from each object of the collection.
    public subscript<V>(dynamicMember member: KeyPath<Element, V>) -> ProjectedCollection<V> {
        ProjectedCollection(KeyPathSource(collection, member))
    }
}

extension List where Element: ObjectBase {
    /// The list's objects mapped through a key path, for `@Projected`: `\Person.friends.projectTo.firstName`.
    public var projectTo: CollectionElementMapper<Element> { CollectionElementMapper(collection: AnyRealmCollection(self)) }
}

extension MutableSet where Element: ObjectBase {
    /// The set's objects mapped through a key path, for `@Projected`: `\Person.pets.projectTo.name`.
    public var projectTo: CollectionElementMapper<Element> { CollectionElementMapper(collection: AnyRealmCollection(self)) }
}

/// What a `ProjectedCollection` reads, with the objects' class erased (overridden by
/// `KeyPathSource`).
private class ProjectedSource<Element: RealmCollectionValue> {
    var count: Int { preconditionFailure("overridden by KeyPathSource") }
    var realm: Realm? { preconditionFailure("overridden by KeyPathSource") }
    var isInvalidated: Bool { preconditionFailure("overridden by KeyPathSource") }
    var isFrozen: Bool { preconditionFailure("overridden by KeyPathSource") }
    func element(at position: Int) -> Element { preconditionFailure("overridden by KeyPathSource") }
    func object(at position: Int) -> ObjectBase { preconditionFailure("overridden by KeyPathSource") }
    func set(_ value: Element, at position: Int) { preconditionFailure("overridden by KeyPathSource") }
    func frozen() -> ProjectedSource { preconditionFailure("overridden by KeyPathSource") }
    func thawed() -> ProjectedSource? { preconditionFailure("overridden by KeyPathSource") }
    func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                 _ block: @escaping (RealmCollectionChange<ProjectedSource>) -> Void) -> NotificationToken {
        preconditionFailure("overridden by KeyPathSource")
    }
}

/// The values `keyPath` reads from the objects of `objects`.
private final class KeyPathSource<Root: ObjectBase & RealmCollectionValue, Element: RealmCollectionValue>: ProjectedSource<Element> {
    let objects: AnyRealmCollection<Root>
    let keyPath: KeyPath<Root, Element>

    init(_ objects: AnyRealmCollection<Root>, _ keyPath: KeyPath<Root, Element>) {
        self.objects = objects
        self.keyPath = keyPath
    }

    override var count: Int { objects.count }
    override var realm: Realm? { objects.realm }
    override var isInvalidated: Bool { objects.isInvalidated }
    override var isFrozen: Bool { objects.isFrozen }
    override func element(at position: Int) -> Element { objects[position][keyPath: keyPath] }
    override func object(at position: Int) -> ObjectBase { objects[position] }
    override func set(_ value: Element, at position: Int) {
        guard let writable = keyPath as? ReferenceWritableKeyPath<Root, Element> else {
            preconditionFailure("Cannot assign to a projected collection whose key path \(keyPath) is read-only")
        }
        objects[position][keyPath: writable] = value
    }
    override func frozen() -> ProjectedSource<Element> { KeyPathSource(objects.freeze(), keyPath) }
    override func thawed() -> ProjectedSource<Element>? { objects.thaw().map { KeyPathSource($0, keyPath) } }

    override func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                          _ block: @escaping (RealmCollectionChange<ProjectedSource<Element>>) -> Void) -> NotificationToken {
        let keyPath = keyPath
        return objects.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial(let objects): block(.initial(KeyPathSource(objects, keyPath)))
            case let .update(objects, deletions, insertions, modifications):
                block(.update(KeyPathSource(objects, keyPath), deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error): block(.error(error))
            }
        }
    }
}
