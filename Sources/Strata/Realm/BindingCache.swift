/// The model classes one Realm instance has looked up and bound to their tables, with the
/// last two of each asked for: calls tend to name the same class again
/// and again, or two in turn (an object and the objects linking to it).
///
/// Bindings are dropped together, after a change that may have removed tables they name (a
/// cancelled or failed write); `generation` then changes, so holders fetch theirs again.
struct BindingCache {
    private var bindings: [ObjectIdentifier: TableBinding] = [:]
    /// The bindings of the dynamic API, by class name (`ModelClass(dynamic:)`).
    private var dynamicBindings: [String: TableBinding] = [:]
    /// The bindings of the objects mixed values hold, by stored class name (each one of the
    /// two kinds above).
    private var heldBindings: [String: TableBinding] = [:]
    private var recentBindings = LastTwo<TableBinding>()
    private var recentModelClasses = LastTwo<ModelClass>()
    /// Changes each time the bindings are dropped.
    private(set) var generation: UInt64 = 0

    /// The binding made for `info`, if any.
    @inline(__always)
    mutating func binding(for info: ModelClass) -> TableBinding? {
        if let recent = recentBindings.first(where: { $0.info === info }) { return recent }
        guard let binding = bindings[ObjectIdentifier(info)] else { return nil }
        recentBindings.remember(binding)
        return binding
    }

    /// The dynamic binding made for class `name`, if any.
    func dynamicBinding(named name: String) -> TableBinding? { dynamicBindings[name] }

    /// The binding kept for the objects of class `name` that mixed values hold, if any.
    func heldObjectBinding(named name: String) -> TableBinding? { heldBindings[name] }

    /// Keeps `binding` as the one for the objects of its class that mixed values hold.
    mutating func addHeld(_ binding: TableBinding) { heldBindings[binding.info.name] = binding }

    /// Keeps `binding`, made for its class in this instance's file.
    mutating func add(_ binding: TableBinding) {
        if binding.info.isDynamic {
            dynamicBindings[binding.info.name] = binding
            return
        }
        bindings[ObjectIdentifier(binding.info)] = binding
        recentBindings.remember(binding)
    }

    /// Every binding made (checked against each new snapshot's schema).
    var all: [TableBinding] { Array(bindings.values) + Array(dynamicBindings.values) }

    /// Forgets every binding.
    mutating func removeAll() {
        guard !bindings.isEmpty || !dynamicBindings.isEmpty else { return }
        bindings.removeAll()
        dynamicBindings.removeAll()
        heldBindings.removeAll()
        recentBindings.removeAll()
        generation &+= 1
    }

    /// The info of model class `type` (`ModelClass.of`, whose process-wide table takes a lock).
    mutating func modelClass(_ type: ObjectBase.Type) throws -> ModelClass {
        if let recent = recentModelClasses.first(where: { $0.type == type }) { return recent }
        let info = try ModelClass.of(type)
        recentModelClasses.remember(info)
        return info
    }
}
