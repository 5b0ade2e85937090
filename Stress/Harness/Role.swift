/// The parts a scenario's worker processes play; the raw value is the `worker` role name.
enum Role: String, CaseIterable {
    /// Moves money between accounts (`bank`, `kill`, `churn`).
    case bankWriter = "bank-writer"
    /// Checks every bank snapshot it sees.
    case bankReader = "bank-reader"
    /// Checks the bank's notifications.
    case bankObserver = "bank-observer"
    /// Opens and releases the file over and over (`churn`).
    case churner = "churn"
    /// Writes and deletes large values (`growth`).
    case blobWriter = "growth-writer"
    /// Holds old snapshots for a long time (`growth`).
    case snapshotHolder = "growth-reader"

    /// Runs this role in this process, with the worker's `options`.
    func run(_ options: Arguments) throws {
        switch self {
        case .bankWriter: try BankWriter.run(options)
        case .bankReader: try BankReader.run(options)
        case .bankObserver: try BankObserver.run(options)
        case .churner: try Churner.run(options)
        case .blobWriter: try BlobWriter.run(options)
        case .snapshotHolder: try SnapshotHolder.run(options)
        }
    }

    /// The role's name in reports and tables.
    var title: String {
        switch self {
        case .bankWriter, .blobWriter: "writer"
        case .bankReader, .snapshotHolder: "reader"
        case .bankObserver: "observer"
        case .churner: "churner"
        }
    }
}
