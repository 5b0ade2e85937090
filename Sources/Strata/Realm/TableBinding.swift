import StrataStorage
import StrataQuery

/// A model class bound to its table in one file: the stored property for each of the class's
/// declared properties (by declaration index). Built once the code's schema is checked
/// against the file's.
final class TableBinding {
    let info: ClassInfo
    let table: Table
    /// The stored property (with its stable id) of each declared property.
    let properties: [PropertySchema]
    /// The row slot of each declared property, for reads: a buffer the binding owns rather
    /// than an array, so that reading a slot on every property access counts no references.
    let slots: UnsafeBufferPointer<Slot>
    /// The query texts filtered on this class so far, resolved once each.
    let preparedQueries: PreparedQueries

    init(info: ClassInfo, table: Table) {
        self.info = info
        self.table = table
        preparedQueries = PreparedQueries(schema: table.schema)
        properties = info.properties.map { table.schema.property(named: $0.name)! }
        let slots = UnsafeMutableBufferPointer<Slot>.allocate(capacity: properties.count)
        _ = slots.initialize(from: properties.map(Slot.init))
        self.slots = UnsafeBufferPointer(slots)
    }

    deinit { slots.deallocate() }

    /// The differences between the code's class and the stored one, one line each (empty
    /// when they match).
    static func differences(code: ClassSchema, stored: ClassSchema) -> [String] {
        var lines: [String] = []
        let name = code.name
        for p in code.properties {
            guard let s = stored.property(named: p.name) else {
                lines.append("Property '\(name).\(p.name)' has been added.")
                continue
            }
            if s.type != p.type || s.intWidth != p.intWidth || s.linkTarget != p.linkTarget || s.isList != p.isList {
                lines.append("Property '\(name).\(p.name)' has been changed from '\(describeType(s))' to '\(describeType(p))'.")
            } else if s.isOptional != p.isOptional {
                lines.append("Property '\(name).\(p.name)' has been made \(p.isOptional ? "optional" : "required").")
            }
            if s.isPrimaryKey != p.isPrimaryKey {
                lines.append(p.isPrimaryKey ? "Primary key property '\(name).\(p.name)' has been added." : "Primary key property '\(name).\(p.name)' has been removed.")
            } else if s.isIndexed != p.isIndexed {
                lines.append("Property '\(name).\(p.name)' has been made \(p.isIndexed ? "indexed" : "unindexed").")
            }
        }
        for s in stored.properties where code.property(named: s.name) == nil {
            lines.append("Property '\(name).\(s.name)' has been removed.")
        }
        return lines
    }

    private static func describeType(_ p: PropertySchema) -> String {
        if p.type == .link { return p.isList ? "array<\(p.linkTarget ?? "?")>" : "<\(p.linkTarget ?? "?")>" }
        let base = (p.type == .int && p.intWidth < 64 ? "int\(p.intWidth)" : p.type.description) + (p.isOptional ? "?" : "")
        return p.isList ? "array<\(base)>" : base
    }
}
