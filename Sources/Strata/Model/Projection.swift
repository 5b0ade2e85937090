import Foundation

/// A view of an object through a chosen set of its properties, possibly renamed or
/// transformed (RealmSwift's `Projection`):
///
///     class PersonProjection: Projection<Person> {
///         @Projected(\Person.firstName) var firstName
///         @Projected(\Person.lastName.localizedUppercase) var lastNameCaps
///         @Projected(\Person.friends.projectTo.firstName) var friendNames: ProjectedCollection<String>
///     }
///
/// A projection reads and writes its root object: nothing is copied. `realm.objects(PersonProjection.self)`
/// gives live `Results` of projections (filtered and sorted by the root class's properties),
/// and `observe` reports changes under the projection's own property names.
open class Projection<Root: ObjectBase>: RealmCollectionValue, RealmFetchable, KeypathSortable, CustomStringConvertible {
    /// Projections are stored as their root objects.
    public typealias PersistedType = Root

    /// The object being projected.
    public let rootObject: Root

    /// A projection of `object`.
    public required init(projecting object: Root) {
        rootObject = object
    }

    /// The schema name of the root class, which `Realm.objects(_:)` fetches.
    public class func className() -> String { Root.className() }

    /// The Realm managing the root object; nil when it is unmanaged.
    public var realm: Realm? { rootObject.managingCore.map(Realm.init(core:)) }

    /// Whether the root object was deleted or its Realm invalidated.
    public var isInvalidated: Bool { rootObject.isInvalidated }

    /// Two projections are equal when they project the same object: the same instance, or
    /// the same stored object of one Realm (as RealmSwift compares them).
    public static func == (lhs: Projection, rhs: Projection) -> Bool {
        lhs.rootObject.isSameStoredObject(rhs.rootObject)
    }

    /// Hashes as the root object does.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rootObject.hash)
    }

    /// The projection's class and root class, and each projected property with the root
    /// property it reads and its value, laid out as RealmSwift's (whose first property line
    /// has one tab more than the others).
    open var description: String {
        let lines = ProjectedProperty.all(of: self).map { property in
            "\t\(property.label)(\\.\(property.path.joined(separator: "."))) = \(property.value(in: self));"
        }
        let address = Unmanaged.passUnretained(rootObject).toOpaque()
        return "\(type(of: self))<\(type(of: rootObject))> <\(address)> {\n\t\(lines.joined(separator: "\n"))\n}"
    }
}

extension Projection: ThreadConfined where Root: ThreadConfined {
    /// Whether the root object belongs to a frozen Realm.
    public var isFrozen: Bool { rootObject.isFrozen }

    /// A projection of the frozen root object.
    public func freeze() -> Self { Self(projecting: rootObject.freeze()) }

    /// A projection of the live root object in this thread's Realm, or nil when it no longer
    /// exists there.
    public func thaw() -> Self? { rootObject.thaw().map { Self(projecting: $0) } }
}

extension Projection: Relocatable {
    /// A projection is found again as its root object is: `ThreadSafeReference(to: projection)`
    /// resolves to a projection of the same class of the object in the other Realm.
    var relocationCore: RealmCore? { rootObject.managingCore }

    var locator: @Sendable (RealmCore) -> Any? {
        let findRoot = rootObject.locator
        let projectionClass = type(of: self)
        return { core in (findRoot(core) as? Root).map { projectionClass.init(projecting: $0) } }
    }
}

/// A property of a `Projection`: the value the key path `projectedKeyPath` reads from the
/// root object (RealmSwift's `@Projected`). Writable when the key path is (a stored property,
/// inside a write); reading and writing go to the root object.
@propertyWrapper
public struct Projected<T: ObjectBase, Value>: AnyProjected {
    /// The key path from the root object to the value.
    public let projectedKeyPath: KeyPath<T, Value>

    /// Projects the value at `projectedKeyPath`.
    public init(_ projectedKeyPath: KeyPath<T, Value>) {
        self.projectedKeyPath = projectedKeyPath
    }

    /// Only usable inside a `Projection`, through the enclosing-instance subscript.
    @available(*, unavailable, message: "@Projected is only available on Projection classes")
    public var wrappedValue: Value {
        get { fatalError("@Projected is only available on Projection classes") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("@Projected is only available on Projection classes") }
    }

    /// The value read from (or written to) the enclosing projection's root object.
    public static subscript<EnclosingSelf: Projection<T>>(
        _enclosingInstance observed: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        get { observed.rootObject[keyPath: observed[keyPath: storageKeyPath].projectedKeyPath] }
        set {
            let keyPath = observed[keyPath: storageKeyPath].projectedKeyPath
            guard let writable = keyPath as? ReferenceWritableKeyPath<T, Value> else {
                preconditionFailure("Cannot assign to a projected property whose key path \(keyPath) is read-only")
            }
            observed.rootObject[keyPath: writable] = newValue
        }
    }

    /// The value `projectedKeyPath` reads from `root`, for the projection's description.
    func value(in root: ObjectBase) -> Any { (root as! T)[keyPath: projectedKeyPath] }
}

/// A `@Projected` property with its types erased, as a projection's mirror shows it.
protocol AnyProjected {
    /// The key path as a partial key path of the root class.
    var anyKeyPath: AnyKeyPath { get }
    /// The value read from `root`.
    func value(in root: ObjectBase) -> Any
}

extension Projected {
    var anyKeyPath: AnyKeyPath { projectedKeyPath }
}

/// How `Results` and `Realm.objects(_:)` make projections without knowing their type.
protocol ProjectionFactory {
    /// The root class.
    static var rootClass: ObjectBase.Type { get }
    /// A projection of `object`, an instance of `rootClass`.
    static func projecting(_ object: ObjectBase) -> AnyObject
}

extension Projection: ProjectionFactory {
    static var rootClass: ObjectBase.Type { Root.self }

    static func projecting(_ object: ObjectBase) -> AnyObject {
        // `Results` of projections hold objects of the root class only.
        Self(projecting: unsafeDowncast(object, to: Root.self))
    }
}
