import Foundation
import StrataStorage
import StrataValues

/// The object lines of `export`, one per object of a table, in key order.
struct ExportLines {
    private let txn: StorageTransaction

    /// The lines of objects read on the snapshot `txn`.
    init(_ txn: StorageTransaction) { self.txn = txn }

    /// Calls `body` with the line of every object of `table`.
    func forEachLine(of table: Table, _ body: (String) throws -> Void) throws {
        let prefix = "{\"class\":" + TextEscapes.jsonString(table.name) + ",\"key\":"
        let names = table.schema.properties.map { TextEscapes.jsonString($0.name) + ":" }
        var linkKeys: [Int: (ObjectKey) throws -> String] = [:]
        for property in table.schema.properties where property.type == .link {
            linkKeys[property.id] = try linkKey(to: property.linkTarget)
        }
        var heldLinkKeys: [String: (ObjectKey) throws -> String] = [:]
        let heldLinkKey = { (className: String, key: ObjectKey) throws -> String in
            if let known = heldLinkKeys[className] { return try known(key) }
            let made = try linkKey(to: className)
            heldLinkKeys[className] = made
            return try made(key)
        }
        let objectKey: (ObjectKey) throws -> String = ObjectLines.objectKeyJSON
        let rows = txn.rows.scan(table)
        while let (key, row) = try rows.next() {
            var line = prefix + ObjectLines.objectKeyJSON(key) + ",\"values\":{"
            for (i, property) in table.schema.properties.enumerated() {
                if i > 0 { line += "," }
                line += names[i]
                let linkKey = linkKeys[property.id] ?? objectKey
                if property.isMap {
                    line += try mapJSON(table, property, owner: key, linkKey: linkKey, heldLinkKey: heldLinkKey)
                } else if property.isList {
                    let elements = try txn.lists.values(table, property, owner: key)
                    line += "[" + (try elements.map { try ObjectLines.json($0, of: property.type, linkKey: linkKey, heldLinkKey: heldLinkKey) }).joined(separator: ",") + "]"
                } else {
                    line += try ObjectLines.json(row.value(property), of: property.type, linkKey: linkKey, heldLinkKey: heldLinkKey)
                }
            }
            line += "}}"
            try body(line)
        }
    }

    /// A map as a JSON object of its entries in key order: `{"key":value,...}`.
    private func mapJSON(_ table: Table, _ property: PropertySchema, owner: ObjectKey,
                         linkKey: (ObjectKey) throws -> String, heldLinkKey: (String, ObjectKey) throws -> String) throws -> String {
        let keys = try txn.lists.mapKeys(table, property, owner: owner)
        let values = try txn.lists.values(table, property, owner: owner)
        let entries = try zip(keys, values).map { k, v in
            TextEscapes.jsonString(k) + ":" + (try ObjectLines.json(v, of: property.type, linkKey: linkKey, heldLinkKey: heldLinkKey))
        }
        return "{" + entries.joined(separator: ",") + "}"
    }

    /// How links to objects of class `targetName` name them: by primary key, or by object
    /// key (`"#N"`) when the class has none.
    private func linkKey(to targetName: String?) throws -> (ObjectKey) throws -> String {
        guard let targetName, let target = try txn.table(targetName), let pk = target.primaryKey else {
            return ObjectLines.objectKeyJSON
        }
        return { key in
            guard let row = try txn.rows.read(target, key) else { return "null" }
            return ObjectLines.json(row.value(pk)) { String($0) }
        }
    }
}
