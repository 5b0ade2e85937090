import StrataStorage

/// The engine's integrity checker (`IntegrityCheck`, the one `strata check` runs) on the
/// newest snapshot of a file: rows, indexes, primary keys, links, lists and backlinks.
enum Integrity {
    /// The checker's verdict, as the summary shows it.
    struct Verdict {
        let ok: Bool
        let text: String
    }

    /// Checks the file at `path`.
    static func check(_ path: String) -> Verdict {
        do {
            let options = StorageFile.Options(readOnly: true, encryptionKey: try EncryptionKey(StressKey.key))
            let txn = try StorageFile.open(path: path, options: options).beginRead()
            defer { txn.abort() }
            let report = try IntegrityCheck.run(txn)
            return Verdict(ok: true, text: "consistent at version \(txn.version): \(report.classes) classes, \(report.objects) objects, \(report.indexEntries) index entries")
        } catch {
            return Verdict(ok: false, text: "INCONSISTENT: \(error)")
        }
    }
}
