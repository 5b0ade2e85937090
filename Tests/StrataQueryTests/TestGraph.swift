import Foundation
import StrataStorage
@testable import StrataQuery

/// Objects of several classes held in memory as plain values: rows (values by property id)
/// and lists (values, or object keys as `.link` for lists of objects). It is what the
/// reference evaluator reads directly, and what compiled queries read through `source`.
final class TestGraph {
    /// The classes, by name.
    let lookup: SchemaLookup
    /// Each class's objects: key → values by property id.
    private(set) var rows: [String: [ObjectKey: [Value]]] = [:]
    /// Each class's lists: property id → owner key → elements.
    private(set) var lists: [String: [Int: [ObjectKey: [Value]]]] = [:]
    /// Encoded rows, allocated once and kept for the graph's lifetime (rows are borrowed).
    private var encoded: [String: [ObjectKey: UnsafeMutableRawBufferPointer]] = [:]

    init(_ lookup: SchemaLookup) { self.lookup = lookup }

    deinit { for (_, byKey) in encoded { for (_, buffer) in byKey { buffer.deallocate() } } }

    /// Adds (or replaces) an object of `className` with `values` by property id.
    func add(_ className: String, _ key: ObjectKey, _ values: [Value]) {
        rows[className, default: [:]][key] = values
        encoded[className]?[key]?.deallocate()
        let bytes = RowEncoder.encode(values)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
        buffer.copyBytes(from: bytes)
        encoded[className, default: [:]][key] = buffer
    }

    /// Sets the list `property` of object `key` of `className`.
    func setList(_ className: String, _ property: PropertySchema, _ key: ObjectKey, _ elements: [Value]) {
        lists[className, default: [:]][property.id, default: [:]][key] = elements
    }

    /// The keys of `className`'s objects, in key order.
    func keys(_ className: String) -> [ObjectKey] { (rows[className] ?? [:]).keys.sorted() }

    /// The encoded row of an object, or nil when there is none.
    func row(_ className: String, _ key: ObjectKey) -> RowView? {
        encoded[className]?[key].flatMap { RowView(UnsafeRawBufferPointer($0)) }
    }

    /// The elements of a list (empty when never set).
    func list(_ className: String, _ property: PropertySchema, _ key: ObjectKey) -> [Value] {
        lists[className]?[property.id]?[key] ?? []
    }

    /// The objects of `origin` whose link or list `property` points at `target`, once each,
    /// in key order.
    func origins(_ origin: String, _ property: PropertySchema, _ target: ObjectKey) -> [ObjectKey] {
        keys(origin).filter { key in
            if property.isList { return list(origin, property, key).contains(.link(target)) }
            return rows[origin]?[key]?[property.id] == .link(target)
        }
    }

    /// A link source over the graph for a compiled query numbering classes as `classes`.
    func source(_ classes: [String]) -> LinkSource { Source(graph: self, classes: classes) }

    private final class Source: LinkSource {
        let graph: TestGraph
        let classes: [String]
        init(graph: TestGraph, classes: [String]) { (self.graph, self.classes) = (graph, classes) }
        func row(_ table: Int, _ key: ObjectKey) throws -> RowView? { graph.row(classes[table], key) }
        func origins(_ origin: Int, _ property: PropertySchema, linkingTo target: ObjectKey) throws -> [ObjectKey] {
            graph.origins(classes[origin], property, target)
        }
        func originCount(_ origin: Int, _ property: PropertySchema, linkingTo target: ObjectKey) throws -> Int {
            graph.origins(classes[origin], property, target).count
        }
        func listValues(_ owner: Int, _ property: PropertySchema, of key: ObjectKey) throws -> [Value] {
            graph.list(classes[owner], property, key)
        }
        func listCount(_ owner: Int, _ property: PropertySchema, of key: ObjectKey) throws -> Int {
            graph.list(classes[owner], property, key).count
        }
        func count(_ table: Int) throws -> Int { graph.keys(classes[table]).count }
        func matches(_ predicate: ResolvedPredicate, of table: Int) throws -> [ObjectKey] {
            let test = Evaluator.compile(predicate)
            return graph.keys(classes[table]).filter { graph.row(classes[table], $0).map(test) ?? false }
        }
    }
}
