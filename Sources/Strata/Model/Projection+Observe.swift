import Foundation

/// What a projection offers change notifications through (RealmSwift's
/// `ProjectionObservable`): its root object, and a way to project another instance of it.
public protocol ProjectionObservable: AnyObject {
    /// The class projected.
    associatedtype Root: ObjectBase
    /// The object being projected.
    var rootObject: Root { get }
    /// A projection of `object`.
    init(projecting object: Root)
}

extension Projection: ProjectionObservable {}

extension ProjectionObservable where Root: ObservableRealmObject {
    /// Observes the projected properties of the root object: `.change(projection,
    /// properties)` after each commit that changed one of them, named as the projection names
    /// them (`lastNameCaps`, not `lastName`), with the projected values; `.deleted` once the
    /// root object is deleted. `keyPaths` (projection property names, or the root property
    /// names they read) narrow what is observed; an empty list observes every projected
    /// property, and a name that is neither traps. A derived or chained key path
    /// (`\Person.friends.projectTo.name`) is observed through the root property it starts
    /// at. `oldValue` is the projected value when last reported (nil for objects and
    /// collections). With `queue`, callbacks run on that serial queue with a projection of
    /// the object as that queue's Realm reads it.
    public func observe(keyPaths: [String] = [], on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        let all = ProjectedProperty.all(of: self)
        let observed = keyPaths.isEmpty ? all : all.filter { keyPaths.contains($0.label) || keyPaths.contains($0.originName) }
        for path in keyPaths where !all.contains(where: { $0.label == path || $0.originName == path }) {
            fatalError("Property '\(path)' is not a projected property of \(type(of: self))")
        }
        return observe(observed, on: queue, block)
    }

    /// `observe(keyPaths:on:_:)` with Swift key paths of the projection
    /// (`\PersonProjection.firstName`).
    public func observe(keyPaths: [PartialKeyPath<Self>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        let info = ModelClass.forType(Root.self)
        let origins = Set(KeyPathRecorder.recordedReads(on: Root.self, in: info) { recorder in
            let tracer = Self(projecting: unsafeDowncast(recorder, to: Root.self))
            for keyPath in keyPaths { _ = tracer[keyPath: keyPath] }
        }.map { KeyPathRecorder.name(of: $0, in: info) })
        return observe(ProjectedProperty.all(of: self).filter { origins.contains($0.originName) }, on: queue, block)
    }

    /// Observes the root properties `observed` read, reporting them under their projected names.
    private func observe(_ observed: [ProjectedProperty], on queue: DispatchQueue?,
                         _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        let reported = ReportedValues(observed.map { ($0.label, $0.reportable(in: self)) })
        var origins: [String] = []
        for property in observed where !origins.contains(property.originName) { origins.append(property.originName) }
        return rootObject.observe(keyPaths: origins, on: queue) { change in
            switch change {
            case let .change(object, changes):
                let projection = Self(projecting: object)
                let names = Set(changes.map(\.name))
                let projected = observed.filter { names.contains($0.originName) }.map { property in
                    let now = property.value(in: projection)
                    let change = PropertyChange(name: property.label, oldValue: reported.values[property.label] ?? nil, newValue: now)
                    reported.values[property.label] = property.reportable(in: projection)
                    return change
                }
                block(.change(projection, projected))
            case .deleted: block(.deleted)
            case .error(let error): block(.error(error))
            }
        }
    }
}

/// The projected values an observer last reported, by projection property name: what the
/// next change calls `oldValue`. Read and written only by the observer's callbacks.
private final class ReportedValues {
    var values: [String: Any?]

    init(_ pairs: [(String, Any?)]) {
        values = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }
}

extension ProjectedProperty {
    /// The value to remember as the next `oldValue`: nil for objects and collections, which
    /// are live accessors whose old state cannot be kept this way.
    func reportable<P: ProjectionObservable>(in projection: P) -> Any? {
        let value = value(in: projection)
        return value is ThreadConfined ? nil : value
    }
}
