import Glibc
import StrataStorage

extension RealmCore {
    /// Stores `Configuration.historyRecordsOldValues` in the file when it differs from the
    /// stored setting, in a commit of its own described "History old values turned on/off"
    /// (a read-only or new, empty file is left as it is).
    func storeOldValuesSetting() throws {
        if configuration.readOnly { return }
        let wanted = configuration.historyRecordsOldValues
        try translatingErrors(path: path) {
            defer { endTransaction() }
            let current = try transaction()
            guard current.version > 0, try current.meta.recordsOldValues != wanted else { return }
            endTransaction()
            let txn = try file.beginWrite()
            defer { txn.abort() }
            guard try txn.meta.recordsOldValues != wanted else { return }
            try txn.meta.setRecordsOldValues(wanted)
            txn.commitDescription = "History old values turned \(wanted ? "on" : "off")"
            try txn.commit(processName: Self.processName, pid: getpid())
        }
    }
}
