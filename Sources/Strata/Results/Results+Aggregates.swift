import Foundation
import StrataStorage
import StrataValues

extension Results {
    /// The smallest value of a numeric or date property, or nil when there are no objects
    /// (nulls are ignored).
    public func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        extreme(property, wantMax: false)
    }

    /// The largest value of a numeric or date property, or nil when there are no objects.
    public func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        extreme(property, wantMax: true)
    }

    /// The sum of a numeric property (0 for no objects; nulls are ignored).
    public func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        let p = aggregated(property, "sum")
        if p.type == .decimal128 { return convert(.decimal128(decimalSum(p).total))! }
        var intSum: Int64 = 0
        var doubleSum = 0.0
        let id = p.id
        switch p.type {
        // Read straight from the slot, with no `Value` per row (a slot past the row's end, of
        // a property added later, reads 0: what skipping it would add).
        case .int: forEachRow { row in if !row.isNull(id) { intSum &+= row.int(id) } }
        case .double: forEachRow { row in if !row.isNull(id) { doubleSum += row.double(id) } }
        default: forEachValue(p) { v in doubleSum += v.numeric ?? 0 }
        }
        return convert(p.type == .int ? .int(intSum) : (p.type == .float ? .float(Float(doubleSum)) : .double(doubleSum)))!
    }

    /// The mean of a numeric property, or nil when there are no (non-null) values.
    public func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        let p = aggregated(property, "average")
        if p.type == .decimal128 {
            let (total, count) = decimalSum(p)
            return count == 0 ? nil : convert(.decimal128(total / BID128(integer: count)))
        }
        var total = 0.0
        var n = 0
        forEachValue(p) { v in total += v.numeric ?? 0; n += 1 }
        guard n > 0 else { return nil }
        return convert(.double(total / Double(n))) ?? convert(.float(Float(total / Double(n)))) ?? convert(.int(Int64(total / Double(n))))
    }

    /// The values of one property for every object, in result order (`"self"`: the objects).
    public func value(forKey key: String) -> Any? {
        if key == "self" { return map { $0 as Any? } }
        let p = property(key, for: "read")
        guard let index = info.index(of: key) else { return [Any?]() }
        let field = info.properties[index].field
        // A collection is read through each object (it is not in the row), never nil.
        if p.isList || p.isMap { return keys.map { field.box(core.object(ObjectBase.self, binding!, $0)._managedValue(index)) } }
        if p.type == .link { return keys.map { field.swiftValue(core.object(ObjectBase.self, binding!, $0)._managedValue(index)) } }
        var values: [Any?] = []
        forEachValue(p, skippingNull: false) { values.append(field.swiftValue(_StrataValue($0))) }
        return values
    }

    /// `value(forKey:)`, a path through to-one links (`"owner.name"`: each object's value,
    /// nil where a link on the way is nil), or a key-value collection operator over either:
    /// `@count`, `@sum.age`, `@avg.age`, `@min.age`, `@max.age` (an `NSNumber`; nil for `@avg`,
    /// `@min`, `@max` of no values), `@unionOfObjects.name` and `@distinctUnionOfObjects.name`
    /// (an `NSArray`).
    public func value(forKeyPath keyPath: String) -> Any? {
        CollectionOperator.value(forKeyPath: keyPath, count: count) { path in
            guard path.contains("."), !state.holdsValues else { return value(forKey: path) }
            return map { ($0 as? Object)?.value(forKeyPath: path) }
        }
    }

    /// Sets one property on every object of the results (inside a write transaction).
    public func setValue(_ value: Any?, forKey key: String) {
        core.checkWrite()
        for key_ in keys {
            let object = core.object(Object.self, binding!, key_)
            object[key] = value
        }
    }

    private func extreme<T>(_ property: String, wantMax: Bool) -> T? {
        let p = aggregated(property, wantMax ? "max" : "min")
        guard p.type.isNumeric || p.type == .date else {
            fatalError("Cannot compute \(wantMax ? "max" : "min") of '\(info.name).\(property)': it is of type \(p.type), not a number or date")
        }
        var best: StrataStorage.Value?
        forEachValue(p) { v in
            if let b = best {
                let c = StrataStorage.Value.compare(v, b)
                if wantMax ? c > 0 : c < 0 { best = v }
            } else {
                best = v
            }
        }
        return best.flatMap { convert($0) }
    }

    /// The exact sum of a decimal128 property and how many non-null values it adds.
    private func decimalSum(_ p: PropertySchema) -> (total: BID128, count: Int) {
        var total = BID128.zero, count = 0
        forEachValue(p) { v in
            total = total + (v.asDecimal128 ?? .zero)
            count += 1
        }
        return (total, count)
    }

    private func aggregated(_ name: String, _ what: String) -> PropertySchema {
        core.confinement.check()
        let p = property(name, for: "compute \(what)")
        if what == "sum" || what == "average", !p.type.isNumeric {
            fatalError("Cannot compute \(what) of '\(info.name).\(name)': it is of type \(p.type), not a number")
        }
        return p
    }

    private func forEachValue(_ p: PropertySchema, skippingNull: Bool = true, _ body: (StrataStorage.Value) -> Void) {
        let slot = Slot(p)  // the plain form of the property, read per row
        forEachRow { row in
            let v = row.value(slot)
            if !(skippingNull && v.isNull) { body(v) }
        }
    }

    /// Calls `body` with the row of every object, in no particular order; a row is valid until
    /// `body` returns.
    private func forEachRow(_ body: (RowView) -> Void) { state.forEachRow(body) }

    /// Converts an aggregate's stored value to the caller's requested Swift type.
    private func convert<T>(_ value: StrataStorage.Value) -> T? { AggregateResult.convert(value) }
}
