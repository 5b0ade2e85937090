import StrataStorage

/// The differences between the code's model classes and a file's stored classes, one line
/// each in RealmSwift's words ("Property 'Dog.age' has been added."); none when they match.
enum SchemaDifferences {
    /// The differences of each class of `infos` that `stored` has.
    static func lines(_ infos: [ModelClass], _ stored: FileSchema) -> [String] {
        infos.flatMap { info in stored.classes[info.name].map { lines(code: info.schema, stored: $0) } ?? [] }
    }

    /// The differences between the code's class and the stored one, one line each (empty
    /// when they match).
    static func lines(code: ClassSchema, stored: ClassSchema) -> [String] {
        var lines: [String] = []
        let name = code.name
        if code.isEmbedded != stored.isEmbedded {
            let kind = { (c: ClassSchema) in c.isEmbedded ? "embedded" : "top-level" }
            lines.append("Class '\(name)' has been changed from \(kind(stored)) to \(kind(code)).")
        }
        for p in code.properties {
            guard let s = stored.property(named: p.name) else {
                lines.append("Property '\(name).\(p.name)' has been added.")
                continue
            }
            if s.type != p.type || s.intWidth != p.intWidth || s.linkTarget != p.linkTarget || s.isList != p.isList || s.isSet != p.isSet || s.isMap != p.isMap {
                lines.append("Property '\(name).\(p.name)' has been changed from '\(DynamicValues.typeName(s))' to '\(DynamicValues.typeName(p))'.")
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
}
