import Foundation

/// How collections print, as RealmSwift's do: the kind and element type, the instance's
/// address, then each element on its own line (an object's properties indented below it),
/// the first `shownElements` of them.
enum CollectionDescription {
    /// The most elements printed; the rest are counted.
    static let shownElements = 100
    /// How many more levels of objects and collections the description being made may print
    /// inside one another (RealmSwift's 5 at the outermost): at 0 an object or collection
    /// prints `<Maximum depth exceeded>`.
    @TaskLocal static var remainingDepth = 5

    /// `body`'s text one level down, or `<Maximum depth exceeded>` when no level is left.
    static func nested(_ body: () -> String) -> String {
        let remaining = remainingDepth
        if remaining <= 0 { return "<Maximum depth exceeded>" }
        return $remainingDepth.withValue(remaining - 1, operation: body)
    }

    /// `kind<typeName> <0x…> (` then a `\t[index] element` line per element (a map's
    /// `[key]: element`, not indented, as RealmSwift prints maps; an element's own lines are
    /// indented either way), then `)`.
    static func render(_ kind: String, _ typeName: String, address: AnyObject?,
                       count: Int, elements: some Sequence<(label: String, value: Any)>, indentsLabels: Bool = true) -> String {
        nested {
            var lines: [String] = []
            for (label, value) in elements.prefix(shownElements) {
                lines.append((indentsLabels ? "\t" : "") + "\(label) " + describe(value).replacingOccurrences(of: "\n", with: "\n\t"))
            }
            if count > shownElements { lines.append("\t... \(count - shownElements) objects skipped.") }
            let pointer = address.map { String(UInt(bitPattern: ObjectIdentifier($0).hashValue), radix: 16) } ?? "0"
            return "\(kind)<\(typeName)> <0x\(pointer)> (\n" + lines.joined(separator: ",\n") + "\n)"
        }
    }

    /// The name RealmSwift prints for an element type: an object's class name, else the
    /// stored type's ("int", "string"...).
    static func typeName<E: _HasPersistedType>(_ type: E.Type) -> String {
        if let object = E.self as? ObjectBase.Type { return object.className() }
        guard let persistable = (E.self as? any _Persistable.Type) ?? (E.PersistedType.self as? any _Persistable.Type) else {
            return "\(E.self)"
        }
        let info = persistable._strataTypeInfo
        return info.linkTarget?.className() ?? info.type.description
    }

    /// An element as printed: an object by its description, nil as `(null)`, a bool as 0 or
    /// 1 and a number as `NSNumber` prints it (`1`, not `1.0`), as RealmSwift prints them.
    static func describe(_ value: Any) -> String {
        switch ValueConversion.flatten(value) {
        case nil: "(null)"
        case let object as ObjectBase: object.description
        case let b as Bool: b ? "1" : "0"
        case let d as Double: number(d)
        case let f as Float: number(f)
        case let x?: "\(x)"
        }
    }

    /// A double as `NSNumber` prints it on Apple's platforms, where RealmSwift's descriptions
    /// come from: 16 significant digits, no trailing zeros (`1`, `12.3`, `1e+300`).
    static func number(_ value: Double) -> String { String(format: "%.16g", value) }

    /// A float as `NSNumber` prints it: 7 significant digits (`1`, `1.23`).
    static func number(_ value: Float) -> String { String(format: "%.7g", Double(value)) }
}
