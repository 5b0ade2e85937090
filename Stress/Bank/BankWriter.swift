import Foundation
import Strata
import StrataStorage

/// `worker bank-writer --file F --accounts A --slot S --incarnation K --log DIR --seed X`:
/// moves money until told to stop, one transfer per transaction, each between two random
/// accounts and of a random amount (at most what the payer has). After each `write` returns
/// it appends the transaction id to its commit log (flushed). One transaction in twenty is
/// begun, changed and cancelled instead, which must leave no trace.
enum BankWriter {
    static func run(_ options: Arguments) throws {
        let control = ControlChannel(), stats = WorkerStats()
        let realm = try Realm(configuration: Bank.configuration(options))
        let accounts = options.int("accounts"), slot = options.int("slot"), incarnation = options.int("incarnation")
        let log = try CommitLog(directory: options.string("log"), slot: slot, incarnation: incarnation)
        var random = SplitMix64(seed: UInt64(options.int("seed")))
        var sequence = 0
        while !control.stopRequested {
            sequence += 1
            let from = random.next(below: accounts)
            let transfer = PlannedTransfer(id: TransactionID.make(slot: slot, incarnation: incarnation, sequence: sequence),
                                           from: from, to: (from + 1 + random.next(below: accounts - 1)) % accounts,
                                           amount: 1 + random.next(below: 200))
            if random.next(below: 20) == 0 {
                realm.beginWrite()
                transfer.make(in: realm)
                realm.cancelWrite()
                stats.add(.abandoned)
            } else {
                try realm.write { transfer.make(in: realm) }
                try log.append(transfer.id)
                stats.add(.commits)
            }
            stats.tick()
        }
        stats.finish()
    }
}

/// A transfer a writer is about to make.
struct PlannedTransfer {
    let id: Int
    let from: Int
    let to: Int
    let amount: Int

    /// Inside a write: moves the amount (at most the payer's balance) and records the
    /// `StressTransfer`, stamped with the version this commit creates (the write sees the
    /// newest version and holds the lock, so it is that version + 1) and the time now.
    func make(in realm: Realm) {
        guard let payer = realm.object(ofType: StressAccount.self, forPrimaryKey: from),
              let payee = realm.object(ofType: StressAccount.self, forPrimaryKey: to)
        else { preconditionFailure("account \(from) or \(to) is missing") }
        let moved = min(amount, payer.balance)
        payer.balance -= moved
        payee.balance += moved
        payer.transfers += 1
        payee.transfers += 1
        realm.add(StressTransfer(value: ["id": id, "version": Int(realm.version) + 1, "from": from, "to": to,
                                         "amount": moved, "committedAt": Date()]))
    }
}
