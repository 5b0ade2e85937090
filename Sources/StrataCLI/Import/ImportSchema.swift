import Foundation
import StrataStorage

/// The schema line of an import's input (`SchemaLine`, the first line of `strata export`)
/// applied to the file: classes it lacks are created, in the import's transaction; classes
/// it has must agree on the types of the properties both name.
enum ImportSchema {
    /// The schema line `bytes` (parsed as `json`), or nil when the line is not one.
    static func schema(_ json: JSONValue, _ bytes: [UInt8], line: Int) throws -> SchemaLine? {
        guard json["schema"] != nil else { return nil }
        do {
            return try JSONDecoder().decode(SchemaLine.self, from: Data(bytes))
        } catch {
            throw LineError(line: line, message: "the schema line does not have the documented shape (\(error))")
        }
    }

    /// Creates the classes of `schema` that `txn`'s file lacks (and stores the schema version
    /// when the file has none); returns their names. Throws `LineError` for line `line` when
    /// a class differs from the file's or a link names a class neither has.
    static func apply(_ schema: SchemaLine.Schema, line: Int, _ txn: StorageTransaction) throws -> [String] {
        let wasEmpty = try txn.schema.classes.isEmpty && txn.meta.schemaVersion == nil
        var missing: [ClassSchema] = []
        for described in schema.classes {
            let wanted: ClassSchema
            do { wanted = try described.schema() } catch let problem as ObjectLines.Problem {
                throw LineError(line: line, message: problem.description)
            }
            if let existing = txn.schema.classes[wanted.name] {
                if let difference = difference(wanted, existing) { throw LineError(line: line, message: difference) }
            } else {
                missing.append(wanted)
            }
        }
        let known = Set(txn.schema.classes.keys).union(missing.map(\.name))
        for c in missing {
            for p in c.properties where p.type == .link && !known.contains(p.linkTarget ?? "") {
                throw LineError(line: line, message: "\(c.name).\(p.name) links to class '\(p.linkTarget ?? "")', which neither the input nor the file has")
            }
        }
        if !missing.isEmpty { try txn.store(classes: missing.map { try txn.meta.freshIDs($0) }) }
        if wasEmpty, let version = schema.version { try txn.meta.setSchemaVersion(version) }
        return missing.map(\.name)
    }

    /// The first property whose type differs between the input's class and the file's, as
    /// a message; nil when they agree (properties only one of them has are left to the lines).
    private static func difference(_ input: ClassSchema, _ file: ClassSchema) -> String? {
        if input.isEmbedded != file.isEmbedded {
            let kind = { (c: ClassSchema) in c.isEmbedded ? "embedded" : "not embedded" }
            return "\(input.name) is \(kind(input)) in the input but \(kind(file)) in the file"
        }
        for p in input.properties {
            guard let f = file.property(named: p.name) else { continue }
            if p.type != f.type || p.intWidth != f.intWidth || p.isList != f.isList || p.isSet != f.isSet || p.isMap != f.isMap || p.linkTarget != f.linkTarget {
                let described = { (p: PropertySchema) in InfoCommand.typeName(PropertyJSON(p)) }
                return "\(input.name).\(p.name) is \(described(p)) in the input but \(described(f)) in the file"
            }
        }
        return nil
    }
}
