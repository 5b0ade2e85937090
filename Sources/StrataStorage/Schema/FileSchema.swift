import LMDB
import Synchronization

/// The schema stored in a file (under the meta key `schema`): every class by name, with the
/// stable property ids its rows are written with.
package struct FileSchema: Sendable, Equatable {
    package var classes: [String: ClassSchema] {
        didSet { layout = DatabaseLayout() }
    }
    /// The databases the classes need, worked out on first use; copies of this value share it
    /// until one of them changes `classes`.
    private(set) var layout = DatabaseLayout()

    package init(classes: [String: ClassSchema] = [:]) { self.classes = classes }

    package static func == (lhs: FileSchema, rhs: FileSchema) -> Bool { lhs.classes == rhs.classes }

    /// The classes sorted by name, as stored.
    package var sorted: [ClassSchema] { classes.values.sorted { $0.name < $1.name } }

    /// Every to-one link property (with its class) whose target is the class named `target`.
    package func links(to target: String) -> [(origin: ClassSchema, property: PropertySchema)] {
        sorted.flatMap { c in c.properties.filter { $0.isToOneLink && $0.linkTarget == target }.map { (c, $0) } }
    }

    /// The names of the embedded classes.
    package var embeddedClassNames: Set<String> { Set(classes.values.filter(\.isEmbedded).map(\.name)) }

    /// Every object-list property (with its class) whose elements are of the class `target`.
    package func lists(of target: String) -> [(origin: ClassSchema, property: PropertySchema)] {
        sorted.flatMap { c in c.properties.filter { $0.isList && $0.linkTarget == target }.map { (c, $0) } }
    }
}

/// The database names a `FileSchema` needs, remembered per schema value.
final class DatabaseLayout: Sendable {
    private struct Known {
        var every: [(name: String, flags: Database.Flags)]?
        var perClass: [String: [Table.DatabaseSpec]] = [:]
    }
    private let known = Mutex(Known())

    /// Every class's databases, from `make` the first time.
    func all(_ make: () -> [(name: String, flags: Database.Flags)]) -> [(name: String, flags: Database.Flags)] {
        known.withLock { known in
            if let every = known.every { return every }
            let made = make()
            known.every = made
            return made
        }
    }

    /// The databases of class `name`, from `make` the first time.
    func ofClass(_ name: String, _ make: () -> [Table.DatabaseSpec]) -> [Table.DatabaseSpec] {
        known.withLock { known in
            if let spec = known.perClass[name] { return spec }
            let made = make()
            known.perClass[name] = made
            return made
        }
    }
}
