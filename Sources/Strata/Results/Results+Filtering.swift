import Foundation
import StrataQuery
import StrataStorage

extension Results {
    /// The results that also match `predicateFormat` (NSPredicate syntax, `%@`/`%K`
    /// arguments). Traps on a malformed or ill-typed query, as RealmSwift does;
    /// `throwingFilter` throws instead.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        do { return try filtered(predicateFormat, args) } catch { trap(error) }
    }

    /// Strata: like `filter(_:_:)` but validates the query eagerly (syntax, property names,
    /// operand types, argument count and types) and throws `Realm.Error` (`.invalidInput`)
    /// with the problem and its position instead of trapping.
    public func throwingFilter(_ predicateFormat: String, _ args: Any...) throws -> Results<Element> {
        try filtered(predicateFormat, args)
    }

    func filtered(_ text: String, _ args: [Any]) throws -> Results<Element> {
        core.confinement.check()
        if state.holdsValues {
            let filter = try ValueFilter(text, args, elementOf: state.valueProperty, core: core)
            return valueResults { $0.filters.append(filter) }
        }
        let arguments = QueryArguments.prepare(args, for: core)
        let compiled: CompiledQuery
        do {
            // A text filtered before is only bound to its new arguments; the lookup of every
            // class (links, inverse relationships) is built only for a text that reaches them.
            if let binding {
                compiled = try binding.preparedQueries.compile(text, arguments: arguments, lookup: core)
            } else {
                compiled = try compileQuery(text, arguments: arguments, schema: querySchema, lookup: core)
            }
        } catch {
            throw Realm.Error(.invalidInput, error.description)
        }
        return refined(by: query.map { $0.and(compiled) } ?? compiled)
    }

    /// Sorted by one property (ascending by default). Traps on an unknown property.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// Sorted by several properties, the first the most significant. Nil sorts first
    /// ascending. Traps on an unknown property.
    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Iterator.Element == SortDescriptor {
        let keys = sortDescriptors.map { d in
            let target = propertyPath(d.keyPath, sorting: true)
            return SortKey(property: target.property, ascending: d.ascending, path: target.path)
        }
        return appending(.sort(keys))
    }

    /// The first object for each distinct combination of the key paths' values. A key path
    /// may go through to-one links (`owner.name`); an object with a nil link on the way is
    /// left out, as in Realm.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Iterator.Element == String {
        appending(.distinct(keyPaths.map { propertyPath($0, sorting: false) }))
    }

    /// The index of the first object matching `predicateFormat`, or nil.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        index(matching: predicateFormat, arguments: args)
    }

    /// `index(matching:_:)` with the arguments as an array.
    func index(matching predicateFormat: String, arguments args: [Any]) -> Int? {
        let matching: Set<ObjectKey>
        do { matching = Set(try filtered(predicateFormat, args).keys) } catch { trap(error) }
        return keys.firstIndex { matching.contains($0) }
    }

    /// The index of `object` in the results, or nil.
    public func index(of object: Element) -> Int? {
        if state.holdsValues {
            let value = (object as! any _Persistable)._strataValue.value
            return state.orderedValues().firstIndex(of: value)
        }
        guard let object = object as? ObjectBase ?? (object as? any ProjectionObservable)?.rootObject, object.binding?.info === info, object.managingCore?.file === core.file else { return nil }
        return keys.firstIndex(of: object.objectKey)
    }

    /// The objects at `indexes`.
    public func objects(at indexes: IndexSet) -> [Element] { indexes.map { self[$0] } }

    private func appending(_ suffix: ResolvedSuffix) -> Results<Element> {
        let base = query ?? CompiledQuery.all(querySchema)
        let step = CompiledQuery(ResolvedQuery(predicate: .constant(true), suffixes: [suffix]), schema: querySchema)
        return refined(by: base.and(step))
    }

    /// The sort (`sorting`) or distinct key for `keyPath`: a property, or one reached through
    /// to-one links (`owner.name`). Traps with a clear message on anything else.
    func propertyPath(_ keyPath: String, sorting: Bool) -> PropertyPath {
        let use = sorting ? "sort" : "distinct"
        guard keyPath.contains(".") else { return PropertyPath(property: property(keyPath, for: use)) }
        let resolver = Resolver(schema: querySchema, arguments: [], lookup: core.schemaLookup())
        let result = Result { () throws(QueryError) -> PropertyPath in try resolver.propertyPath(keyPath, sorting: sorting) }
        switch result {
        case .success(let key): return key
        case .failure(let error): fatalError("Cannot \(use) on key path '\(keyPath)': \(error.message)")
        }
    }

    /// The stored property named `name`; traps with a clear message if there is none.
    func property(_ name: String, for use: String) -> PropertySchema {
        guard let p = querySchema.property(named: name) else {
            fatalError("Cannot \(use) on key path '\(name)': property '\(info.name).\(name)' does not exist")
        }
        return p
    }
}
