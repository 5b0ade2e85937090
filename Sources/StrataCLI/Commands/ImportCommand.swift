import Foundation
import StrataStorage

/// `strata import FILE INPUT`: adds the objects of a `strata export` file to FILE in one write
/// transaction: all of them, or none when any line is wrong.
///
/// The classes must already be in FILE's schema (created by the app that owns the file);
/// import adds objects, never classes or properties. Objects go in first, then links and
/// lists are set (a second pass in the same transaction), so lines may refer to objects on
/// later lines. Links name their target by primary key (which may also be an object already
/// in FILE), or by the "key" of a line of the input when the target class has none.
struct ImportCommand: Command {
    static let name = "import"
    static let usage = "import FILE INPUT"
    static let summary = "add the objects of a JSON Lines export to FILE (one transaction)"
    static let help = """
        usage: strata import FILE INPUT

        Adds the objects in INPUT (JSON Lines as `strata export` writes them; - reads stdin)
        to FILE in one write transaction, recorded in the history as "import INPUT". Any
        bad line stops the import with its line number and nothing is written.

        Every class must already be in FILE's schema: open FILE once with the app (or the
        Realm configuration) that defines it. Each line needs every property of its class
        except optional ones and lists; a link is the target's primary key (an object of
        INPUT or one already in FILE), or, when the target class has none, the "key" of
        the target's line in INPUT. A primary key already in FILE is an error.

        examples:
          strata export old.strata > objects.jsonl && strata import new.strata objects.jsonl

        exit status: 0 success, 1 a bad line or a file that cannot be written (nothing
        written), 2 bad arguments
        """

    /// One object line of the input.
    private struct Record {
        let line: Int
        let className: String
        let key: ObjectKey?
        let values: [(String, JSONValue)]
    }

    private struct LineError: Error {
        let line: Int
        let message: String
    }

    func run(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") { Output.line(Self.help); return 0 }
        if let option = arguments.first(where: { $0.hasPrefix("--") }) { throw UsageError("unknown option \(option)") }
        guard arguments.count == 2 else { throw UsageError("import takes a FILE and an INPUT file") }
        let path = arguments[0], input = arguments[1]
        guard FileManager.default.fileExists(atPath: path) else {
            Output.error("import: '\(path)' does not exist; import adds objects to a file that has the classes already")
            return 1
        }
        let data: Data
        if input == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let d = FileManager.default.contents(atPath: input) else {
                Output.error("import: cannot read '\(input)'")
                return 1
            }
            data = d
        }

        // Parse every line before the write begins (no lock held meanwhile).
        var records: [Record] = []
        do {
            records = try Self.parse(data)
        } catch let error as LineError {
            Output.error("import: \(input) line \(error.line): \(error.message); nothing was imported")
            return 1
        }

        let file = try StorageFile.open(path: path, options: .init(readOnly: false))
        let txn = try file.beginWrite()
        do {
            try Self.write(records, txn)
            txn.commitDescription = "import \(URL(fileURLWithPath: input).lastPathComponent)"
            let version = try txn.commit(processName: "strata", pid: getpid())
            Output.line("\(path): imported \(records.count) \(records.count == 1 ? "object" : "objects") at version \(version)")
            return 0
        } catch let error as LineError {
            txn.abort()
            Output.error("import: \(input) line \(error.line): \(error.message); nothing was imported")
            return 1
        } catch {
            txn.abort()
            throw error
        }
    }

    /// The object lines of `data` (blank lines are skipped).
    private static func parse(_ data: Data) throws -> [Record] {
        var records: [Record] = []
        var lineNumber = 0
        let progress = Progress("reading: line", total: 0)
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            let bytes = buffer.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                lineNumber += 1
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                start = end + 1
                if text.allSatisfy({ $0.isWhitespace }) { continue }
                records.append(try record(text, line: lineNumber))
                progress.update(lineNumber)
            }
        }
        progress.finish()
        return records
    }

    private static func record(_ text: String, line: Int) throws -> Record {
        let json: JSONValue
        do { json = try JSONValue.parse(text) } catch { throw LineError(line: line, message: "\(error)") }
        guard case .object = json else { throw LineError(line: line, message: "expected a JSON object") }
        guard case .string(let className)? = json["class"] else {
            throw LineError(line: line, message: "expected \"class\": the name of a class")
        }
        var key: ObjectKey?
        switch json["key"] {
        case nil, .null?: break
        case .number(let text)? where UInt64(text) != nil: key = UInt64(text)
        default: throw LineError(line: line, message: "\"key\" must be an object key (an integer of 0 or more)")
        }
        guard case .object(let values)? = json["values"] else {
            throw LineError(line: line, message: "expected \"values\": an object of property values")
        }
        return Record(line: line, className: className, key: key, values: values)
    }

    /// Adds the objects, then sets their links and lists. Throws `LineError` for a bad line.
    private static func write(_ records: [Record], _ txn: StorageTransaction) throws {
        let progress = Progress("importing: step", total: records.count * 2)
        var keys: [ObjectKey] = []  // the new object key of each record
        keys.reserveCapacity(records.count)
        // Object keys in the input → new keys, for classes without a primary key.
        var keyMaps: [String: [ObjectKey: ObjectKey]] = [:]
        var tables: [String: Table] = [:]
        func tableNamed(_ name: String, line: Int) throws -> Table {
            if let t = tables[name] { return t }
            guard let t = try txn.table(name) else {
                let known = txn.schema.classes.keys.sorted()
                throw LineError(line: line, message: "class '\(name)' is not in the file's schema (it has \(known.isEmpty ? "no classes" : known.joined(separator: ", "))); import adds objects only to classes the app created")
            }
            tables[name] = t
            return t
        }
        func storage(_ line: Int, _ body: () throws -> Void) throws {
            do { try body() } catch let error as StorageError { throw LineError(line: line, message: error.message) }
        }

        for (n, record) in records.enumerated() {
            let table = try tableNamed(record.className, line: record.line)
            let schema = table.schema
            var row = [Value](repeating: .null, count: schema.slotCount)
            var given = Set<String>()
            for (name, json) in record.values {
                guard let property = schema.property(named: name) else {
                    throw LineError(line: record.line, message: "class '\(schema.name)' has no property '\(name)'")
                }
                guard given.insert(name).inserted else {
                    throw LineError(line: record.line, message: "'\(name)' appears twice")
                }
                if property.isList {
                    guard case .array = json else {
                        throw LineError(line: record.line, message: "\(schema.name).\(name): expected an array, got \(json.kind)")
                    }
                    continue
                }
                if property.type == .link { continue }
                do {
                    row[property.id] = try ObjectLines.value(json, for: property, in: schema.name)
                } catch let problem as ObjectLines.Problem {
                    throw LineError(line: record.line, message: problem.description)
                }
            }
            for property in schema.properties where !given.contains(property.name) {
                if property.isList || property.isOptional || property.type == .link { continue }
                throw LineError(line: record.line, message: "\(schema.name).\(property.name) is missing")
            }
            try storage(record.line) {
                let key = try txn.insert(table, values: row)
                keys.append(key)
                if let old = record.key, table.primaryKey == nil { keyMaps[schema.name, default: [:]][old] = key }
            }
            progress.update(n)
        }

        for (n, record) in records.enumerated() {
            let table = tables[record.className]!
            let key = keys[n]
            for (name, json) in record.values {
                let property = table.schema.property(named: name)!
                guard property.isList || property.type == .link else { continue }
                func resolve(_ json: JSONValue) throws -> Value {
                    guard property.type == .link else {
                        do { return try ObjectLines.value(json, for: property, in: table.name) } catch let problem as ObjectLines.Problem {
                            throw LineError(line: record.line, message: problem.description)
                        }
                    }
                    if case .null = json {
                        if property.isList { throw LineError(line: record.line, message: "\(table.name).\(name): a list of objects cannot hold null") }
                        return .null
                    }
                    let targetName = property.linkTarget ?? ""
                    let target = try tableNamed(targetName, line: record.line)
                    if let pk = target.primaryKey {
                        let value: Value
                        do { value = try ObjectLines.value(json, for: pk, in: target.name) } catch let problem as ObjectLines.Problem {
                            throw LineError(line: record.line, message: "\(table.name).\(name): \(problem.description)")
                        }
                        guard let targetKey = try txn.objectKey(target, primaryKey: value) else {
                            throw LineError(line: record.line, message: "\(table.name).\(name): no \(target.name) with primary key \(describe(value))")
                        }
                        return .link(targetKey)
                    }
                    guard case .number(let text) = json, let old = UInt64(text) else {
                        throw LineError(line: record.line, message: "\(table.name).\(name): expected the key of a \(target.name) line, got \(json.kind)")
                    }
                    guard let targetKey = keyMaps[target.name]?[old] else {
                        throw LineError(line: record.line, message: "\(table.name).\(name): no \(target.name) line with key \(old) in the input")
                    }
                    return .link(targetKey)
                }
                if property.isList {
                    guard case .array(let elements) = json else { continue }
                    let values = try elements.map(resolve)
                    if values.isEmpty { continue }
                    try storage(record.line) { try txn.listInsert(table, property, owner: key, values, at: 0) }
                } else {
                    let value = try resolve(json)
                    if case .null = value { continue }
                    try storage(record.line) { try txn.update(table, key, [(property, value)]) }
                }
            }
            progress.update(records.count + n)
        }
        progress.finish()
    }
}
