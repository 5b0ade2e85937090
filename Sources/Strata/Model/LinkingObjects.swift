import Foundation
import StrataStorage

/// The objects whose link property points at an object: an inverse relationship, declared as
/// `@Persisted(originProperty: "owner") var dogs: LinkingObjects<Dog>`. Live, queryable, and
/// read from the stored backlinks: counting it is O(log n) and loads no object. Empty while
/// its object is unmanaged.
public struct LinkingObjects<Element: ObjectBase & RealmCollectionValue>: RealmCollection, _Persistable, LinkingObjectsProtocol {
    public typealias PersistedType = LinkingObjects<Element>

    /// The name of the link property of `Element` this collection is the inverse of.
    let originProperty: String
    /// The objects, once the owning object is managed.
    let results: Results<Element>?
    /// A key-path recorder's only element (`\Dog.owners[0].name` reads on through it).
    private let recorded: Element?

    /// The inverse of `Element`'s link property `propertyName`.
    public init(fromType _: Element.Type, property propertyName: String) {
        self.init(originProperty: propertyName, results: nil)
    }

    init(originProperty: String, results: Results<Element>?, recorded: Element? = nil) {
        self.originProperty = originProperty
        self.results = results
        self.recorded = recorded
    }

    public var realm: Realm? { results?.realm }
    public var isInvalidated: Bool { results?.isInvalidated ?? false }
    public var count: Int { results?.count ?? 0 }
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    /// "LinkingObjects<Dog> <0x…> (" and each object on its own line, as RealmSwift prints them.
    public var description: String {
        CollectionDescription.render("LinkingObjects", Element.className(), address: results?.state, count: count,
                                     elements: enumerated().lazy.map { (label: "[\($0.offset)]", value: $0.element as Any) })
    }

    /// The object at `index`.
    public subscript(index: Int) -> Element {
        guard let results else {
            if let recorded { return recorded }
            preconditionFailure("Index \(index) is out of bounds: the collection is empty")
        }
        return results[index]
    }

    public func makeIterator() -> RLMIterator<Element> { RLMIterator(results) }

    public func index(of object: Element) -> Int? { results?.index(of: object) }

    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        managed.index(matching: predicateFormat, arguments: args)
    }

    public func objects(at indexes: IndexSet) -> [Element] { indexes.map { self[$0] } }

    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        do { return try managed.filtered(predicateFormat, args) } catch { trap(error) }
    }

    /// Strata: like `filter(_:_:)` but throws `Realm.Error` (`.invalidInput`) on a bad query.
    public func throwingFilter(_ predicateFormat: String, _ args: Any...) throws -> Results<Element> {
        try managed.filtered(predicateFormat, args)
    }

    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        managed.sorted(byKeyPath: keyPath, ascending: ascending)
    }

    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Iterator.Element == SortDescriptor {
        managed.sorted(by: sortDescriptors)
    }

    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Iterator.Element == String {
        managed.distinct(by: keyPaths)
    }

    public func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        results?.min(ofProperty: property)
    }

    public func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        results?.max(ofProperty: property)
    }

    public func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        managed.sum(ofProperty: property)
    }

    public func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        results?.average(ofProperty: property)
    }

    public func value(forKey key: String) -> Any? { results?.value(forKey: key) ?? [Any?]() }
    public func value(forKeyPath keyPath: String) -> Any? { results?.value(forKeyPath: keyPath) ?? value(forKey: keyPath) }
    public func setValue(_ value: Any?, forKey key: String) { results?.setValue(value, forKey: key) }

    /// Same owner, origin property and Realm.
    public static func == (lhs: LinkingObjects<Element>, rhs: LinkingObjects<Element>) -> Bool {
        lhs.originProperty == rhs.originProperty && lhs.results == rhs.results
    }

    /// The results, for the calls that only make sense on a managed object's collection.
    private var managed: Results<Element> {
        guard let results else {
            fatalError("Queries on LinkingObjects need a managed object: add the object to a Realm first")
        }
        return results
    }

    // MARK: _Persistable (never stored in a row)

    public static var _strataTypeInfo: _StrataTypeInfo {
        _StrataTypeInfo(type: .link, isOptional: true, intWidth: 64, linkTarget: Element.self, isLinkingObjects: true)
    }
    public static func _strataFrom(_ value: _StrataValue) -> LinkingObjects<Element> { value.collection as! LinkingObjects<Element> }
    public var _strataValue: _StrataValue { _StrataValue(.null, collection: self) }
    /// A managed object's collection made directly, with no value boxed and cast on the way
    /// (a key-path recorder's read still goes through `_managedValue`).
    public static func _strataRead(_ object: ObjectBase, _ index: Int) -> LinkingObjects<Element> {
        object._managedLinkingObjects(index, of: Element.self) ?? _strataFrom(object._managedValue(index))
    }
}

extension LinkingObjects: LinkingObjectsAccess {
    var originPropertyName: String { originProperty }

    static func managed(core: RealmCore, _ inverse: ModelInverse, target: ObjectKey) -> Any {
        managedCollection(core: core, inverse, target: target)
    }

    /// The live collection of the objects linking to object `target` through `inverse`'s
    /// origin property.
    static func managedCollection(core: RealmCore, _ inverse: ModelInverse, target: ObjectKey) -> LinkingObjects<Element> {
        LinkingObjects(originProperty: inverse.originProperty,
                       results: Results(core: core, info: core.reading { try core.modelClass(Element.self) },
                                        source: .backlinks(property: inverse.storedOriginProperty, target: target)))
    }
}

/// What the object layer needs from a `LinkingObjects<T>` without knowing `T`.
protocol LinkingObjectsAccess {
    /// The origin link property's name, as declared.
    var originPropertyName: String { get }
    /// The live collection of the objects linking to object `target` through `inverse`.
    static func managed(core: RealmCore, _ inverse: ModelInverse, target: ObjectKey) -> Any
}

/// The types `@Persisted(originProperty:)` accepts.
public protocol LinkingObjectsProtocol {
    /// The collection of an object not yet managed: empty, its origin property named.
    init(_unmanagedOriginProperty originProperty: String)
}

extension Persisted where Value: LinkingObjectsProtocol {
    /// `@Persisted(originProperty: "owner") var dogs: LinkingObjects<Dog>`: the inverse of
    /// the named link property of the element class.
    @inlinable
    public init(originProperty: String) {
        self.init(wrappedValue: Value(_unmanagedOriginProperty: originProperty), options: [])
    }
}

/// Builds an unmanaged `LinkingObjects<T>` from its type alone, and reads the keys of any.
protocol LinkingObjectsTyped {
    static func unmanaged(originProperty: String) -> Any
    /// An unmanaged collection whose subscript hands out `element`, a key-path recorder.
    static func recording(originProperty: String, element: ObjectBase) -> Any
    /// The keys of the objects linking here now, in order (none when unmanaged).
    var linkingKeys: [ObjectKey] { get }
}
extension LinkingObjects: LinkingObjectsTyped {
    /// The collection of an object not yet managed: empty, its origin property named.
    public init(_unmanagedOriginProperty originProperty: String) { self.init(originProperty: originProperty, results: nil) }
    static func unmanaged(originProperty: String) -> Any { LinkingObjects(_unmanagedOriginProperty: originProperty) }
    static func recording(originProperty: String, element: ObjectBase) -> Any {
        LinkingObjects(originProperty: originProperty, results: nil, recorded: element as? Element)
    }
    var linkingKeys: [ObjectKey] { results?.keys ?? [] }
}

/// A `LinkingObjects` declared as a `let` field holding the collection itself
/// (`let owners = LinkingObjects(fromType: Person.self, property: "dogs")`, RealmSwift's form
/// from before `@Persisted`): attaching an object writes its live collection into the field.
protocol InverseField {
    /// The class whose link property points at this one.
    static var origin: ObjectBase.Type { get }
    /// The origin property's name, as the field's collection declares it.
    static func originProperty(at field: UnsafeMutableRawPointer) -> String
    /// Writes into `field` the live collection of the objects linking to object `target`.
    static func attach(at field: UnsafeMutableRawPointer, core: RealmCore, _ inverse: ModelInverse, target: ObjectKey)
    /// Writes into `field` a collection handing out `element`, a key-path recorder.
    static func record(at field: UnsafeMutableRawPointer, element: ObjectBase)
}

extension LinkingObjects: InverseField {
    static var origin: ObjectBase.Type { Element.self }

    static func originProperty(at field: UnsafeMutableRawPointer) -> String { field.load(as: Self.self).originProperty }

    static func attach(at field: UnsafeMutableRawPointer, core: RealmCore, _ inverse: ModelInverse, target: ObjectKey) {
        field.assumingMemoryBound(to: Self.self).pointee = managedCollection(core: core, inverse, target: target)
    }

    static func record(at field: UnsafeMutableRawPointer, element: ObjectBase) {
        let current = field.load(as: Self.self)
        field.assumingMemoryBound(to: Self.self).pointee = LinkingObjects(originProperty: current.originProperty, results: nil,
                                                                          recorded: element as? Element)
    }
}
