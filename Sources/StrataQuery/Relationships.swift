import Foundation
import StrataStorage

/// One step of a key path through a relationship, from the objects of one class to the
/// objects of another.
///
/// A to-one step (`owner`) yields at most one object; a to-many step (a `LinkingObjects`
/// property, `@links.Class.property`, or a `List` property) yields any number. Everything
/// downstream (quantifiers, `@count`, aggregates, `SUBQUERY`) only asks a step for its
/// targets. A list of values (`List<String>`) is a to-many step too, but it yields values,
/// not objects, so it can only end a path.
package enum LinkStep: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A to-one link property of the current class: its slot holds the target's object key.
    case link(PropertySchema)
    /// The objects of class `origin` whose link `property` points at the current object,
    /// read from the stored backlinks. `name` is how the query wrote it: the
    /// `LinkingObjects` property's name, or nil for `@links.Origin.property`.
    case backlinks(origin: String, property: PropertySchema, name: String?)
    /// The list `property` of the current class `owner`, read from the list's own database:
    /// the objects it holds (in list order, repeats included) for a list of objects, or its
    /// values for a list of values.
    case list(owner: String, property: PropertySchema)

    /// Whether the step may yield more than one object.
    package var isToMany: Bool {
        if case .link = self { return false }
        return true
    }

    /// The class of the objects the step yields.
    package var targetClass: String {
        switch self {
        case .link(let p): p.linkTarget ?? ""
        case .backlinks(let origin, _, _): origin
        case .list(_, let p): p.linkTarget ?? ""
        }
    }

    /// Whether the step is a list of values (it yields values, not objects).
    package var isValueList: Bool {
        if case .list(_, let p) = self { return p.type != .link }
        return false
    }

    /// For a list of values: one element as a property (the list's name, type and
    /// optionality), which the comparisons on its elements are resolved against.
    package var element: PropertySchema? {
        guard case .list(_, let p) = self, p.type != .link else { return nil }
        return PropertySchema(name: p.name, type: p.type, isOptional: p.isOptional, id: p.id, intWidth: p.intWidth)
    }

    /// The step as query text: `owner`, `dogs`, `@links.Dog.owner`.
    package var description: String {
        switch self {
        case .link(let p): p.name
        case .backlinks(let origin, let p, let name): name ?? "@links.\(origin).\(p.name)"
        case .list(_, let p): p.name
        }
    }

    package static func == (a: LinkStep, b: LinkStep) -> Bool {
        switch (a, b) {
        case (.link(let p), .link(let q)): p.id == q.id && p.name == q.name && p.linkTarget == q.linkTarget
        case (.backlinks(let o, let p, let n), .backlinks(let r, let q, let m)): o == r && p.id == q.id && p.name == q.name && n == m
        case (.list(let o, let p), .list(let r, let q)):
            o == r && p.id == q.id && p.name == q.name && p.type == q.type && p.linkTarget == q.linkTarget
        default: false
        }
    }

    package func hash(into h: inout Hasher) {
        h.combine(description)
        h.combine(targetClass)
    }
}

/// A path of steps as query text: `owner.bestFriend`.
package func pathText(_ steps: [LinkStep]) -> String { steps.map(\.description).joined(separator: ".") }

/// What a collection operator computes over the objects at the end of a to-many path.
package enum AggregateFunction: Equatable, Sendable, CustomStringConvertible {
    /// `@count` / `@size`: how many objects.
    case count
    /// `@sum.property`: 0 when there are none (nulls are skipped).
    case sum(PropertySchema)
    /// `@avg.property`: null when there are no non-null values.
    case avg(PropertySchema)
    /// `@min.property`: null when there are no non-null values.
    case min(PropertySchema)
    /// `@max.property`: null when there are no non-null values.
    case max(PropertySchema)

    /// The property aggregated (nil for `@count`).
    package var property: PropertySchema? {
        switch self {
        case .count: nil
        case .sum(let p), .avg(let p), .min(let p), .max(let p): p
        }
    }

    /// `@count`, `@sum.age`, ...
    package var description: String {
        switch self {
        case .count: "@count"
        case .sum(let p): "@sum.\(p.name)"
        case .avg(let p): "@avg.\(p.name)"
        case .min(let p): "@min.\(p.name)"
        case .max(let p): "@max.\(p.name)"
        }
    }

    /// `@count`, `@sum`, ... without the property (as it follows a list of values).
    package var operatorName: String {
        switch self {
        case .count: "@count"
        case .sum: "@sum"
        case .avg: "@avg"
        case .min: "@min"
        case .max: "@max"
        }
    }

    /// The type of the computed value, as a property the operand is converted to.
    package var result: PropertySchema {
        switch self {
        case .count: return PropertySchema(name: "@count", type: .int, id: -1)
        case .sum(let p): return PropertySchema(name: description, type: p.type, id: -1)
        case .avg(let p): return PropertySchema(name: description, type: p.type == .float ? .float : .double, isOptional: true, id: -1)
        case .min(let p), .max(let p): return PropertySchema(name: description, type: p.type, isOptional: true, id: -1)
        }
    }
}

/// A collection operator over the objects (or values) at the end of a to-many path:
/// `path.@count`, `path.@sum.property`, `values.@max`, or `SUBQUERY(path, $x, filter).@count`.
package struct CollectionAggregate: Equatable, Sendable, CustomStringConvertible {
    /// The steps from the object to the objects or values aggregated (at least one to-many step).
    package var path: [LinkStep]
    /// What is computed.
    package var function: AggregateFunction
    /// SUBQUERY's condition on each object or value (only those matching are aggregated).
    package var filter: ResolvedPredicate?
    /// SUBQUERY's variable name, for the text.
    package var variable: String?

    package init(path: [LinkStep], function: AggregateFunction, filter: ResolvedPredicate? = nil, variable: String? = nil) {
        self.path = path
        self.function = function
        self.filter = filter
        self.variable = variable
    }

    /// Query text: `dogs.@sum.age`, `scores.@max`, `SUBQUERY(dogs, $d, $d.age > 2).@count`.
    package var description: String { description(prefix: "") }

    /// The text with `prefix` before the path (`$d.` inside a SUBQUERY).
    package func description(prefix: String) -> String {
        let collection = prefix + pathText(path)
        if let filter {
            let v = "$" + (variable ?? "x")
            let condition = path.last?.isValueList == true
                ? filter.description(prefix: "", element: v) : filter.description(prefix: v + ".")
            return "SUBQUERY(\(collection), \(v), \(condition)).@count"
        }
        if path.last?.isValueList == true { return "\(collection).\(function.operatorName)" }
        return "\(collection).\(function)"
    }
}

/// A collection operator compared with a value: `dogs.@count > 1`, `scores.@sum == 11`,
/// `SUBQUERY(dogs, $d, $d.age > 2).@count > 0`.
package struct ResolvedAggregate: Equatable, Sendable, CustomStringConvertible {
    /// What is computed.
    package var aggregate: CollectionAggregate
    /// The comparison applied to the computed value.
    package var op: ComparisonOperator
    /// What the computed value is compared with (already of the result's type).
    package var operand: ResolvedOperand

    package init(path: [LinkStep], function: AggregateFunction, filter: ResolvedPredicate? = nil, variable: String? = nil,
                 op: ComparisonOperator, operand: ResolvedOperand) {
        aggregate = CollectionAggregate(path: path, function: function, filter: filter, variable: variable)
        self.op = op
        self.operand = operand
    }

    /// The steps from the object to the objects or values aggregated.
    package var path: [LinkStep] { aggregate.path }

    /// Query text.
    package var description: String { "\(aggregate) \(op.rawValue) \(operand)" }
}

/// A managed object given as a query argument (`owner == %@`), as the resolver sees it.
package struct ObjectArgument: Sendable, Equatable {
    /// The object's class name.
    package var className: String
    /// Its object key; nil for an unmanaged or deleted object (which equals no stored object).
    package var key: ObjectKey?
    /// Whether it belongs to another Realm file than the one queried (an error, as in Realm).
    package var isFromOtherRealm: Bool

    package init(className: String, key: ObjectKey?, isFromOtherRealm: Bool = false) {
        self.className = className
        self.key = key
        self.isFromOtherRealm = isFromOtherRealm
    }
}

/// An inverse relationship (`@Persisted(originProperty: "owner") var dogs: LinkingObjects<Dog>`)
/// declared by a class. It is not stored in the file, so the object layer passes the
/// declarations in.
package struct InverseRelationship: Equatable, Sendable {
    /// The property's name in the class that declares it (`dogs`).
    package var name: String
    /// The class whose link points at the declaring class (`Dog`).
    package var originClass: String
    /// That link property's name (`owner`).
    package var originProperty: String

    package init(name: String, originClass: String, originProperty: String) {
        self.name = name
        self.originClass = originClass
        self.originProperty = originProperty
    }
}

/// The classes a query may reach through relationships: the stored schemas, and the
/// inverse relationships each class declares.
package struct SchemaLookup: Sendable {
    /// Every class by name (the stored schema, with stable property ids).
    package var classes: [String: ClassSchema]
    /// The inverse relationships declared by each class, by the declaring class's name.
    package var inverses: [String: [InverseRelationship]]

    package init(classes: [String: ClassSchema] = [:], inverses: [String: [InverseRelationship]] = [:]) {
        self.classes = classes
        self.inverses = inverses
    }

    /// A lookup that knows one class only (no relationships can be followed).
    package init(_ schema: ClassSchema) {
        self.init(classes: [schema.name: schema])
    }
}

extension ResolvedPredicate {
    /// The predicate as text with every property name prefixed (`owner.` + `name == 'x'`).
    /// With `element`, comparisons are about one value of a list of values and name it so
    /// (`$t BEGINSWITH 'a'` inside `SUBQUERY(tags, $t, …)`).
    package func description(prefix: String, element: String? = nil) -> String {
        switch self {
        case .constant: return description
        case .aggregate(let a): return "\(a.aggregate.description(prefix: prefix)) \(a.op.rawValue) \(a.operand)"
        case .keyPaths(let k): return k.description(prefix: prefix)
        case .geoWithin(let g): return "\(prefix.hasSuffix(".") ? String(prefix.dropLast()) : prefix) GEOWITHIN \(g.region)"
        case .and(let ps): return "(" + ps.map { $0.description(prefix: prefix, element: element) }.joined(separator: " AND ") + ")"
        case .or(let ps): return "(" + ps.map { $0.description(prefix: prefix, element: element) }.joined(separator: " OR ") + ")"
        case .not(let p): return "NOT " + p.description(prefix: prefix, element: element)
        case .comparison(let c):
            let lhs = element ?? prefix + c.property.name
            let rhs: String
            if case .property(let q) = c.operand { rhs = element ?? prefix + q.name } else { rhs = c.operand.description }
            return "\(lhs) \(c.op.rawValue)\(c.options) \(rhs)"
        case .identity(let keys):
            let object = prefix.hasSuffix(".") ? String(prefix.dropLast()) : (prefix.isEmpty ? "SELF" : prefix)
            return keys.count == 1 ? "\(object) == link(\(keys[0]))" : "\(object) IN {" + keys.map { "link(\($0))" }.joined(separator: ", ") + "}"
        case .path(let steps, let q, let inner):
            let quantifier = steps.contains(where: \.isToMany) ? q.rawValue + " " : ""
            if steps.last?.isValueList == true {
                // The inner comparisons are named by the list itself: `ANY tags == 'x'`.
                let head = Array(steps.dropLast())
                return quantifier + inner.description(prefix: prefix + (head.isEmpty ? "" : pathText(head) + "."))
            }
            return quantifier + inner.description(prefix: prefix + pathText(steps) + ".")
        }
    }

    /// Whether evaluating the predicate reads other objects than the one tested.
    package var followsLinks: Bool {
        switch self {
        case .constant, .comparison: return false
        case .and(let ps), .or(let ps): return ps.contains { $0.followsLinks }
        case .not(let p): return p.followsLinks
        case .path, .aggregate, .identity, .keyPaths, .geoWithin: return true
        }
    }
}
