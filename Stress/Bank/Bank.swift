import Foundation
import Strata

/// What the bank roles and scenarios share: the classes, the opening balance, the file's
/// configuration, and the accounts every run starts from.
enum Bank {
    /// Every account's balance before the first transfer.
    static let openingBalance = 1000

    /// The classes of a bank file.
    static let types: [Object.Type] = [StressAccount.self, StressTransfer.self]

    /// The configuration of the bank file at `path`.
    static func configuration(path: String, nosync: Bool, readOnly: Bool = false) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: readOnly, objectTypes: types)
        configuration.syncOnCommit = !nosync
        return StressKey.applied(to: configuration)
    }

    /// The configuration a worker's `--file` and `--nosync` name.
    static func configuration(_ options: Arguments, readOnly: Bool = false) -> Realm.Configuration {
        configuration(path: options.string("file"), nosync: options.flag("nosync"), readOnly: readOnly)
    }

    /// The ledger a worker's `--accounts` and `--base` describe.
    static func ledger(_ options: Arguments) -> Ledger {
        Ledger(accounts: options.int("accounts"), base: UInt64(options.int("base")))
    }

    /// Creates `accounts` accounts in a new file and returns the version before the first
    /// transfer. The Realm is released before returning, so the coordinator pins nothing.
    static func createAccounts(_ accounts: Int, path: String, nosync: Bool) throws -> UInt64 {
        let realm = try Realm(configuration: configuration(path: path, nosync: nosync))
        try realm.write {
            for id in 0..<accounts { realm.add(StressAccount(value: ["id": id, "balance": openingBalance])) }
        }
        return realm.version
    }
}
