import Foundation
import StrataStorage

/// Objects that can be observed: `object.observe { change in … }` gives an
/// `ObjectChange` of the object's own class.
public protocol ObservableRealmObject: ObjectBase {}

extension Object: ObservableRealmObject {}

extension ObservableRealmObject {
    /// Observes this managed object: `.change(object, properties)` on this thread's run loop
    /// after each local commit or `refresh()` that changed its properties (those of
    /// `keyPaths` only, when given), `.deleted` once it is deleted. `PropertyChange.oldValue`
    /// is the value when last reported, for changes made by other Realm instances (threads,
    /// queues, processes); nil for changes this Realm made, and for links and lists, as in
    /// RealmSwift. With `queue`, callbacks run on that serial queue, with the object as the
    /// Realm confined to it reads it.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        observeObject(keyPaths: keyPaths, on: queue, block)
    }

    /// `observe(keyPaths:on:_:)` with the object handed out as `T`, RealmSwift's form
    /// (`ObjectChange<ObjectBase>`): `T` is the object's class or a class it inherits from.
    public func observe<T: ObjectBase>(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                                       _ block: @escaping (ObjectChange<T>) -> Void) -> NotificationToken {
        observeObject(keyPaths: keyPaths, on: queue, block)
    }

    /// `observe(keyPaths:on:_:)` with Swift key paths (`[\Dog.name, \Dog.owner?.name]`).
    public func observe(keyPaths: [PartialKeyPath<Self>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        observeObject(keyPaths: KeyPathRecorder.observedPaths(keyPaths), on: queue, block)
    }

    /// `observe(keyPaths:on:_:)` with Swift key paths of `T`, the object's class or a class it
    /// inherits from.
    public func observe<T: ObjectBase>(keyPaths: [PartialKeyPath<T>], on queue: DispatchQueue? = nil,
                                       _ block: @escaping (ObjectChange<T>) -> Void) -> NotificationToken {
        observeObject(keyPaths: KeyPathRecorder.observedPaths(keyPaths), on: queue, block)
    }

    /// The `observe` overloads, with the object handed to `block` as `T`.
    private func observeObject<T: ObjectBase>(keyPaths: [String]?, on queue: DispatchQueue?,
                                              _ block: @escaping (ObjectChange<T>) -> Void) -> NotificationToken {
        guard let core = managingCore, let binding else {
            preconditionFailure("Only objects which are managed by a Realm support change notifications")
        }
        guard self is T else { preconditionFailure("A '\(binding.info.name)' object cannot be observed as \(T.self)") }
        if let queue = deliveryQueue(core, queue) {
            return Strata.observe(self, on: queue) { $0.observeObject(keyPaths: keyPaths, on: nil, block) }
        }
        precondition(!isInvalidated, "Object has been deleted or invalidated: it cannot be observed")
        let inverses = binding.info.linkingObjects.filter { inverse in
            keyPaths?.contains { $0 == inverse.name || $0.hasPrefix(inverse.name + ".") } ?? false
        }
        let stored = keyPaths?.filter { path in !inverses.contains { path == $0.name || path.hasPrefix($0.name + ".") } }
        let mask = propertyMask(stored, binding.querySchema, className: binding.info.name)
        let linked = LinkedKeyPath.of(keyPaths, binding, core)
        let observer = ObjectObserver(object: self, mask: mask, inverses: inverses, linked: linked) { change in
            switch change {
            case let .change(object, properties): block(.change(unsafeDowncast(object, to: T.self), properties))
            case .deleted: block(.deleted)
            case .error(let error): block(.error(error))
            }
        }
        core.notifications.add(observer, core)
        return observer
    }
}

/// Observes one object: reports the properties (of `mask`) changed since its version, with
/// their values then (`PropertyChange.oldValue`) and now, and the `LinkingObjects`
/// properties named in the key paths whose objects changed.
final class ObjectObserver: Observer {
    let object: ObjectBase
    let mask: UInt64
    let block: (ObjectChange<ObjectBase>) -> Void
    /// The observed `LinkingObjects` properties, each with the name of its origin class and
    /// the keys of the objects linking here as last reported.
    private var inverses: [(property: ModelInverse, origin: Set<String>, keys: [ObjectKey])]
    /// The observed values as last reported, by property name: what the next change calls
    /// `oldValue`. Only values, not links and lists (those are live accessors, so their old
    /// state cannot be kept this way; their `oldValue` is nil).
    private var reported: [String: Any?] = [:]
    /// The observed key paths through relationships (`dog.name`).
    private let linked: [LinkedKeyPath]

    init(object: ObjectBase, mask: UInt64, inverses: [ModelInverse] = [], linked: [LinkedKeyPath] = [],
         block: @escaping (ObjectChange<ObjectBase>) -> Void) {
        self.object = object
        self.mask = mask
        self.linked = linked
        self.block = block
        self.inverses = inverses.map { ($0, [ModelClass.forType($0.origin).name], []) }
        super.init(core: object.managingCore!)
        reported = observedValues()
        linkingChanges(since: nil, nil)
    }

    /// The observed `LinkingObjects` properties whose objects changed after `since` (all of
    /// them, when `since` is nil), taking their objects now as reported.
    @discardableResult
    private func linkingChanges(since: UInt64?, _ log: ChangeLog?) -> [PropertyChange] {
        guard let info = object.binding?.info else { return [] }
        var changes: [PropertyChange] = []
        for i in inverses.indices {
            if let since, let log, !log.touches(inverses[i].origin, since: since) { continue }
            let value = KeyValueCoding.linkingObjects(inverses[i].property.name, of: object, info)
            let keys = (value as? LinkingObjectsTyped)?.linkingKeys ?? []
            if keys == inverses[i].keys { continue }
            inverses[i].keys = keys
            changes.append(PropertyChange(name: inverses[i].property.name, oldValue: nil, newValue: value))
        }
        return changes
    }

    /// The current values of the observed value properties.
    private func observedValues() -> [String: Any?] {
        guard let binding = object.binding, let object = object as? Object else { return [:] }
        var values: [String: Any?] = [:]
        for property in binding.querySchema.properties
        where mask & ClassChanges.bit(property.id) != 0 && property.linkTarget == nil && !property.isList {
            values[property.name] = .some(object[property.name])
        }
        return values
    }

    override func rebase() {
        super.rebase()
        reported = observedValues()
        linkingChanges(since: nil, nil)
    }

    override func deliver(_ log: ChangeLog) {
        guard let binding = object.binding, let since = advance(to: log) else { return }
        let delta = log.delta(binding.info.name, since: since)
        if delta.touched {
            let key = object.objectKey
            let exists: Bool
            do { exists = try core.row(binding, key) != nil } catch { return fail(error) }
            if delta.removed(key) || !exists {
                invalidate()
                block(.deleted)
                return
            }
        }
        var properties = delta.touched ? directChanges(delta, binding, log, since: since) : []
        properties += linkingChanges(since: since, log)
        for path in linked where !properties.contains(where: { $0.name == path.property }) && path.changed(for: object, in: log, since: since) {
            properties.append(PropertyChange(name: path.property, oldValue: nil, newValue: (object as? Object)?[path.property]))
        }
        if !properties.isEmpty { block(.change(object, properties)) }
    }

    /// The observed properties of the object itself that `delta` changed, with their values
    /// as last reported and now (taking those as reported).
    private func directChanges(_ delta: ClassDelta, _ binding: TableBinding, _ log: ChangeLog, since: UInt64) -> [PropertyChange] {
        let changed = delta.mask(object.objectKey) & mask
        guard changed != 0 else { return [] }
        let schema = binding.querySchema
        let names = delta.unknown ? schema.properties.filter { changed & ClassChanges.bit($0.id) != 0 }.map(\.name)
                                  : HistoryResolver.names(changed, schema)
        let declared = Set(binding.info.properties.map(\.name))
        // Changes made by this Realm come without old values, as RealmSwift's made on the
        // observing thread do.
        let previous = core.recentCommits.include(after: since, through: log.version) ? [:] : reported
        reported = observedValues()
        return names.filter(declared.contains).map { name in
            PropertyChange(name: name, oldValue: previous[name] ?? nil, newValue: (object as? Object)?[name])
        }
    }

    override func fail(_ error: Swift.Error) { block(.error(error as NSError)) }
}
