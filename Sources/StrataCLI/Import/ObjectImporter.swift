import Foundation
import StrataStorage

/// Adds the object lines of an import to a write transaction: `add` inserts each object with
/// its plain values at once; `linkAll` then sets the links and lists, so a line may refer to
/// an object on a later line. Every problem is a `LineError` naming the line; the caller
/// aborts the transaction then, so nothing is written.
///
/// Links name their target by primary key (an object of the input or one already in the
/// file), or, when the target class has none, by the "key" of the target's line.
final class ObjectImporter {
    private let txn: StorageTransaction
    private var tables: [String: Table] = [:]
    /// Input object keys → new object keys, for classes without a primary key.
    private var keyMaps: [String: [ObjectKey: ObjectKey]] = [:]
    /// The links and lists of each added object, set by `linkAll`.
    private var pending: [(line: Int, table: Table, key: ObjectKey, values: [(PropertySchema, JSONValue)])] = []
    /// The embedded objects added, with their lines: each must have an owner once linked.
    private var embedded: [(line: Int, table: Table, key: ObjectKey)] = []
    /// Objects added so far.
    private(set) var count = 0

    /// An importer into the write transaction `txn`.
    init(_ txn: StorageTransaction) { self.txn = txn }

    /// Adds the object of line `line` (`{"class", "key", "values"}`).
    func add(_ json: JSONValue, line: Int) throws {
        guard case .object = json else { throw LineError(line: line, message: "expected a JSON object") }
        guard case .string(let className)? = json["class"] else {
            throw LineError(line: line, message: "expected \"class\": the name of a class")
        }
        var inputKey: ObjectKey?
        if let key = json["key"], key != .null {
            guard let k = ObjectLines.objectKey(key) else {
                throw LineError(line: line, message: "\"key\" must be an object key (\"#N\" or N, an integer of 0 or more)")
            }
            inputKey = k
        }
        guard case .object(let members)? = json["values"] else {
            throw LineError(line: line, message: "expected \"values\": an object of property values")
        }
        let table = try table(className, line: line)
        let schema = table.schema
        var row = [Value](repeating: .null, count: schema.slotCount)
        var given = Set<String>()
        var relationships: [(PropertySchema, JSONValue)] = []
        for (name, value) in members {
            guard let property = schema.property(named: name) else {
                throw LineError(line: line, message: "class '\(schema.name)' has no property '\(name)'")
            }
            guard given.insert(name).inserted else { throw LineError(line: line, message: "'\(name)' appears twice") }
            if property.isMap {
                guard case .object(let entries) = value else {
                    throw LineError(line: line, message: "\(schema.name).\(name): expected an object of map entries, got \(value.kind)")
                }
                if let repeated = Dictionary(entries.map { ($0.0, 1) }, uniquingKeysWith: +).first(where: { $0.value > 1 }) {
                    throw LineError(line: line, message: "\(schema.name).\(name): the key '\(repeated.key)' appears twice")
                }
                relationships.append((property, value))
            } else if property.isList {
                guard case .array = value else {
                    throw LineError(line: line, message: "\(schema.name).\(name): expected an array, got \(value.kind)")
                }
                relationships.append((property, value))
            } else if property.canHoldLinks {
                // Links, and mixed values that may be links, are set once every object is in.
                relationships.append((property, value))
            } else {
                row[property.id] = try converted(value, property, in: schema.name, line: line)
            }
        }
        for property in schema.properties where !given.contains(property.name) {
            if property.isList || property.isOptional || property.type == .link { continue }
            throw LineError(line: line, message: "\(schema.name).\(property.name) is missing")
        }
        let key = try storage(line) { try txn.objects.insert(table, values: row) }
        if let inputKey, table.primaryKey == nil { keyMaps[schema.name, default: [:]][inputKey] = key }
        if !relationships.isEmpty { pending.append((line, table, key, relationships)) }
        if schema.isEmbedded { embedded.append((line, table, key)) }
        count += 1
    }

    /// Sets the links and lists of every added object; `progress` is told how many objects
    /// are done.
    func linkAll(progress: (Int) -> Void) throws {
        for (n, object) in pending.enumerated() {
            for (property, json) in object.values {
                if property.isMap {
                    guard case .object(let entries) = json else { continue }
                    for (k, v) in entries {
                        let value = try element(v, property, of: object.table, line: object.line)
                        _ = try storage(object.line) { try txn.lists.setMapValue(object.table, property, owner: object.key, value, forKey: k) }
                    }
                } else if property.isList {
                    guard case .array(let elements) = json else { continue }
                    let values = try elements.map { try element($0, property, of: object.table, line: object.line) }
                    if values.isEmpty { continue }
                    try storage(object.line) { try txn.lists.insert(object.table, property, owner: object.key, values, at: 0) }
                } else {
                    let value = try element(json, property, of: object.table, line: object.line)
                    if case .null = value { continue }
                    try storage(object.line) { try txn.objects.update(object.table, object.key, [(property, value)]) }
                }
            }
            progress(n + 1)
        }
        for object in embedded where try txn.objects.ownerCount(of: object.key, in: object.table) == 0 {
            throw LineError(line: object.line, message: "\(object.table.name) is embedded: no line links to this object, and it cannot stand on its own")
        }
    }

    /// The number of objects with links or lists (what `linkAll` goes through).
    var pendingCount: Int { pending.count }

    /// One value of a link, list or map property: a list element or map value, or a link
    /// resolved to its target's new object key (null for a map's nil object value).
    private func element(_ json: JSONValue, _ property: PropertySchema, of table: Table, line: Int) throws -> Value {
        let name = "\(table.name).\(property.name)"
        if property.type == .mixed, case .string("link")? = json["type"] {
            guard case .object? = json["value"], case .string(let className)? = json["value"]?["class"], let key = json["value"]?["key"] else {
                throw LineError(line: line, message: "\(name): a mixed value's link needs a \"value\" of a \"class\" and a \"key\"")
            }
            return .typedLink(className, try resolve(key, to: try self.table(className, line: line), name, line: line))
        }
        guard property.type == .link else { return try converted(json, property, in: table.name, line: line) }
        if case .null = json {
            if property.isList && !property.isMap { throw LineError(line: line, message: "\(name): a list of objects cannot hold null") }
            return .null
        }
        return .link(try resolve(json, to: try self.table(property.linkTarget ?? "", line: line), name, line: line))
    }

    /// The link to the object of `target` that `json` names: by its primary key, or by the
    /// key of its line in the input when the class has none.
    private func resolve(_ json: JSONValue, to target: Table, _ name: String, line: Int) throws -> ObjectKey {
        if let pk = target.primaryKey {
            let value: Value
            do { value = try ObjectLines.value(json, for: pk, in: target.name) } catch let problem as ObjectLines.Problem {
                throw LineError(line: line, message: "\(name): \(problem.description)")
            }
            guard let targetKey = try txn.indexes.objectKey(target, primaryKey: value) else {
                throw LineError(line: line, message: "\(name): no \(target.name) with primary key \(describe(value))")
            }
            return targetKey
        }
        guard let old = ObjectLines.objectKey(json) else {
            throw LineError(line: line, message: "\(name): expected the key of a \(target.name) line, got \(json.kind)")
        }
        guard let targetKey = keyMaps[target.name]?[old] else {
            throw LineError(line: line, message: "\(name): no \(target.name) line with key \(old) in the input")
        }
        return targetKey
    }

    /// `json` as a stored value of `property`.
    private func converted(_ json: JSONValue, _ property: PropertySchema, in className: String, line: Int) throws -> Value {
        do { return try ObjectLines.value(json, for: property, in: className) } catch let problem as ObjectLines.Problem {
            throw LineError(line: line, message: problem.description)
        }
    }

    /// The table of class `name`, which the file's schema must have.
    private func table(_ name: String, line: Int) throws -> Table {
        if let t = tables[name] { return t }
        guard let t = try txn.table(name) else {
            let known = txn.schema.classes.keys.sorted()
            throw LineError(line: line, message: "class '\(name)' is in neither the file's schema (\(known.isEmpty ? "no classes" : known.joined(separator: ", "))) nor a schema line of the input")
        }
        tables[name] = t
        return t
    }

    /// Runs a storage operation for line `line`, turning its errors (a duplicate primary key,
    /// a value out of range) into a `LineError`.
    private func storage<T>(_ line: Int, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as StorageError { throw LineError(line: line, message: error.message) }
    }
}
