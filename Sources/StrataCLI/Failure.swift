import Strata
import StrataStorage

/// A failure a command reports: `strata: <command>: <message>` on stderr, then
/// `hint: <hint>` when there is one, and the exit status.
struct CommandFailure: Error {
    let message: String
    let hint: String?
    let status: Int32

    /// A failure saying `message`, with `hint` when there is one to give.
    init(_ message: String, hint: String? = nil, status: Int32 = 1) {
        self.message = message
        self.hint = hint
        self.status = status
    }

    /// Any error a command let through, as a failure with status 1 and, for the errors of
    /// opening and reading files, a hint.
    init(_ error: Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure
        case let error as StorageError:
            self.init(error.message, hint: Self.hint(error.code))
        case let error as Realm.Error:
            self.init(error.localizedDescription, hint: StorageError.Code(rawValue: error.code.rawValue).flatMap(Self.hint))
        default:
            self.init("\(error)")
        }
    }

    /// What to try after a storage error with `code`.
    private static func hint(_ code: StorageError.Code) -> String? {
        switch code {
        case .fileNotFound:
            return "check the path: FILE is the database file itself ('strata demo' makes one to try)"
        case .invalidDatabase:
            return "FILE must be a Strata database file; the tool does not read other formats"
        case .unsupportedFileFormatVersion, .fileFormatUpgradeRequired:
            return "read it with the version of Strata that wrote it, or a newer one"
        case .filePermissionDenied, .fileAccess:
            return "check the permissions of FILE and of its directory"
        case .fileExists:
            return "give the name of a file that does not exist yet"
        case .outOfDiskSpace, .addressSpaceExhausted:
            return "free some disk space, then run the command again"
        case .alreadyOpen:
            return "close the other users of the file first"
        case .schemaMismatch, .invalidInput, .fail, .fileOperationFailed, .incompatibleLockFile:
            return nil
        }
    }
}
