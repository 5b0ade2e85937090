import Foundation
import StrataStorage

/// `strata check FILE`: verifies the file's structures (rows, indexes, primary keys, links,
/// lists, backlinks) on one snapshot, while other processes keep working. Exit status 0 when
/// consistent, 1 with the first inconsistency on stderr.
struct CheckCommand: Command {
    static let name = "check"
    static let usage = "check FILE"
    static let summary = "verify indexes, links, lists and backlinks"

    func run(_ arguments: [String]) throws -> Int32 {
        guard arguments.count == 1 else { throw UsageError("check takes one file") }
        let file = try StorageFile.open(path: arguments[0], options: .init(readOnly: true))
        let txn = try file.beginRead()
        defer { txn.abort() }
        do {
            let report = try IntegrityCheck.run(txn)
            Output.line("\(arguments[0]): consistent at version \(txn.version): \(report.classes) classes, \(report.objects) objects, \(report.indexEntries) index entries, \(report.links) links, \(report.listElements) list elements")
            return 0
        } catch let problem as IntegrityCheck.Problem {
            Output.error("\(arguments[0]): inconsistent at version \(txn.version): \(problem)")
            return 1
        }
    }
}
