import Synchronization

/// One `@Projected` property of a projection class: its name, the root property its key
/// path reads first (what change notifications are about), and the key path itself.
/// Found once per projection class, from a mirror of its first instance.
struct ProjectedProperty {
    /// The projection's property name (`lastNameCaps`).
    let label: String
    /// The root class's stored property the key path starts at (`lastName`).
    var originName: String { path[0] }
    /// The stored properties the key path reads, through to-one links (`["address", "city"]`).
    let path: [String]
    /// The `@Projected` wrapper.
    let projected: AnyProjected

    /// The property's value in `projection`.
    func value<P: ProjectionObservable>(in projection: P) -> Any { projected.value(in: projection.rootObject) }

    private static let lock = Mutex(())
    /// The properties of each projection class, in declaration order (under `lock`).
    nonisolated(unsafe) private static var byClass: [ObjectIdentifier: [ProjectedProperty]] = [:]

    /// The projected properties of `projection`'s class. Traps, as RealmSwift does, for a
    /// `@Projected` key path that reads no stored property of the root class.
    static func all<P: ProjectionObservable>(of projection: P) -> [ProjectedProperty] {
        let id = ObjectIdentifier(type(of: projection))
        if let known = lock.withLock({ _ in byClass[id] }) { return known }
        let info = ModelClass.forType(P.Root.self)
        var mirror: Mirror? = Mirror(reflecting: projection)
        var levels: [[ProjectedProperty]] = []
        while let current = mirror {
            levels.append(current.children.compactMap { child in
                guard let projected = child.value as? AnyProjected, let label = child.label else { return nil }
                let name = String(label.dropFirst(label.hasPrefix("_") ? 1 : 0))
                let path = KeyPathRecorder.readPath(of: projected.anyKeyPath, on: P.Root.self, in: info)
                guard !path.isEmpty else {
                    fatalError("@Projected property '\(name)' of \(type(of: projection)) must read a stored property of '\(info.name)'")
                }
                return ProjectedProperty(label: name, path: path, projected: projected)
            })
            mirror = current.superclassMirror
        }
        // Superclasses' properties come first, as they are declared first.
        let properties = levels.reversed().flatMap { $0 }
        lock.withLock { _ in byClass[id] = properties }
        return properties
    }
}
