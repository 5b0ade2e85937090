import StrataStorage

/// A key path an object observer watches through a relationship (`dog.name`,
/// `employees.hired`, `owners.name`): a change of the named property of an object the
/// relationship reaches now is reported as a change of the relationship's property, as
/// RealmSwift reports it.
struct LinkedKeyPath {
    /// The observed object's property: a link, a list, set or map of objects, or a
    /// `LinkingObjects`.
    let property: String
    /// The stored name of the class the relationship reaches.
    let targetClass: String
    /// The properties of that class the key path names next (every one for `*`).
    let targetMask: UInt64

    /// The key paths of `keyPaths` that go through a relationship of the class of `binding`,
    /// whose targets `core` binds.
    static func of(_ keyPaths: [String]?, _ binding: TableBinding, _ core: RealmCore) -> [LinkedKeyPath] {
        guard let keyPaths else { return [] }
        return keyPaths.compactMap { path in
            let parts = path.split(separator: ".", maxSplits: 2).map(String.init)
            guard parts.count > 1 else { return nil }
            let target: ObjectBase.Type?
            if let inverse = binding.info.linkingObjects.first(where: { $0.name == parts[0] }) {
                target = inverse.origin
            } else {
                target = binding.info.index(of: parts[0]).flatMap { binding.info.properties[$0].linkTarget }
            }
            guard let target, let targetBinding = core.reading({ try core.binding(for: try core.modelClass(target)) }) else { return nil }
            let schema = targetBinding.querySchema
            let mask = parts[1] == "*" ? UInt64.max : propertyMask([parts[1]], schema, className: schema.name)
            return LinkedKeyPath(property: parts[0], targetClass: targetBinding.info.name, targetMask: mask)
        }
    }

    /// Whether an object the relationship of `object` reaches now changed a watched property
    /// after `since`.
    func changed(for object: ObjectBase, in log: ChangeLog, since: UInt64) -> Bool {
        let delta = log.delta(targetClass, since: since)
        guard delta.touched else { return false }
        return targetKeys(of: object).contains { delta.mask($0) & targetMask != 0 }
    }

    /// The keys of the objects the relationship of `object` reaches now.
    private func targetKeys(of object: ObjectBase) -> [ObjectKey] {
        guard let object = object as? Object else { return [] }
        switch object.value(forKey: property) {
        case let target as ObjectBase: return [target.objectKey]
        case let inverse as LinkingObjectsTyped: return inverse.linkingKeys
        case let collection as any StoredCollection:
            return collection.store?.read { try $0.values() }.compactMap { if case .link(let key) = $0 { key } else { nil } } ?? []
        default: return []
        }
    }
}
