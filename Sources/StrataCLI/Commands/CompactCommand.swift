import Foundation
import Strata

/// `strata compact FILE OUT`: writes a compacted copy of FILE to OUT (which must not exist),
/// using LMDB's compacting copy: one consistent version, even while other processes write.
struct CompactCommand: Command {
    static let name = "compact"
    static let usage = "compact FILE OUT"
    static let summary = "write a compacted copy of FILE to OUT (a new file)"

    func run(_ arguments: [String]) throws -> Int32 {
        guard arguments.count == 2 else { throw UsageError("compact needs a FILE and an OUT path") }
        let source = URL(fileURLWithPath: arguments[0]), destination = URL(fileURLWithPath: arguments[1])
        guard FileManager.default.fileExists(atPath: source.path) else {
            Output.error("compact: '\(source.path)' does not exist")
            return 1
        }
        if FileManager.default.fileExists(atPath: destination.path) {
            Output.error("compact: '\(destination.path)' exists; give a new file")
            return 1
        }
        // Read-only, with no classes of its own: the file's schema is left as it is.
        let realm = try Realm(configuration: Realm.Configuration(fileURL: source, readOnly: true, objectTypes: []))
        try realm.writeCopy(toFile: destination)
        let before = Self.size(source), after = Self.size(destination)
        Output.line("\(source.path): \(before) bytes → \(destination.path): \(after) bytes")
        return 0
    }

    private static func size(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }
}
