import Foundation
import StrataStorage

extension Realm {
    /// An error a user or a file can cause (RealmSwift's `Realm.Error`). Match it with
    /// `catch Realm.Error.fileNotFound` or `catch let e as Realm.Error` and `e.code`;
    /// `localizedDescription` says what went wrong and where.
    public struct Error: Swift.Error, Equatable, CustomStringConvertible {
        /// RealmSwift's error codes (same raw values).
        public enum Code: Int, Sendable {
            case fail = 1
            case fileAccess = 2
            case filePermissionDenied = 3
            case fileExists = 4
            case fileNotFound = 5
            case fileFormatUpgradeRequired = 6
            case incompatibleLockFile = 8
            case addressSpaceExhausted = 9
            case schemaMismatch = 10
            case alreadyOpen = 12
            case invalidInput = 13
            case outOfDiskSpace = 14
            case unsupportedFileFormatVersion = 16
            case fileOperationFailed = 19
            case invalidDatabase = 20
        }

        /// The kind of failure.
        public let code: Code
        /// Details: `NSLocalizedDescription` carries the message, `NSFilePath` the file if any.
        public let userInfo: [String: Any]

        /// Creates an error with `code` and `userInfo` (as RealmSwift's initialiser).
        public init(_ code: Code, userInfo: [String: Any] = [:]) {
            self.code = code
            self.userInfo = userInfo
        }

        package init(_ code: Code, _ message: String, path: String? = nil) {
            var info: [String: Any] = [NSLocalizedDescriptionKey: message]
            if let path { info[NSFilePathErrorKey] = path }
            self.init(code, userInfo: info)
        }

        /// The message a person can act on.
        public var localizedDescription: String {
            userInfo[NSLocalizedDescriptionKey] as? String ?? "Realm error \(code)"
        }

        public var description: String { "Realm.Error(\(code)): \(localizedDescription)" }

        /// The file which produced this error, if any.
        public var fileURL: URL? { (userInfo[NSFilePathErrorKey] as? String).map { URL(fileURLWithPath: $0) } }

        public static var fail: Code { .fail }
        public static var fileAccess: Code { .fileAccess }
        public static var filePermissionDenied: Code { .filePermissionDenied }
        public static var fileExists: Code { .fileExists }
        public static var fileNotFound: Code { .fileNotFound }
        public static var fileFormatUpgradeRequired: Code { .fileFormatUpgradeRequired }
        public static var incompatibleLockFile: Code { .incompatibleLockFile }
        public static var addressSpaceExhausted: Code { .addressSpaceExhausted }
        public static var schemaMismatch: Code { .schemaMismatch }
        public static var alreadyOpen: Code { .alreadyOpen }
        public static var invalidInput: Code { .invalidInput }
        public static var outOfDiskSpace: Code { .outOfDiskSpace }
        public static var unsupportedFileFormatVersion: Code { .unsupportedFileFormatVersion }
        public static var fileOperationFailed: Code { .fileOperationFailed }
        public static var invalidDatabase: Code { .invalidDatabase }

        /// Errors are equal when their codes and messages are.
        public static func == (lhs: Error, rhs: Error) -> Bool {
            lhs.code == rhs.code && lhs.localizedDescription == rhs.localizedDescription
        }

        /// The error naming the file `given` (as a configuration spells it: `/tmp//a.realm`)
        /// where it names `path` (the same file, standardized), as RealmSwift names it.
        func naming(_ given: String?, insteadOf path: String) -> Error {
            guard let given, given != path, userInfo[NSFilePathErrorKey] as? String == path else { return self }
            var info = userInfo
            info[NSFilePathErrorKey] = given
            if let message = info[NSLocalizedDescriptionKey] as? String {
                info[NSLocalizedDescriptionKey] = message.replacingOccurrences(of: "'\(path)'", with: "'\(given)'")
            }
            return Error(code, userInfo: info)
        }

        /// Translates a storage-layer error: its code is this code (the raw values are the same).
        init(_ error: StorageError, path: String? = nil) {
            self.init(Code(rawValue: error.code.rawValue)!, error.message, path: error.path ?? path)
        }
    }
}

/// Enables `catch Realm.Error.fileNotFound { ... }` (what NSError bridging gives RealmSwift).
public func ~= (code: Realm.Error.Code, error: Swift.Error) -> Bool {
    (error as? Realm.Error)?.code == code
}

/// Runs storage work, translating its errors into `Realm.Error`.
@inline(__always)
package func translatingErrors<T>(path: String? = nil, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as StorageError {
        throw Realm.Error(error, path: path)
    }
}

/// Traps with the message of `error`: the behaviour of the RealmSwift calls that raise an
/// exception on bad input (their throwing twins throw instead).
func trap(_ error: Swift.Error, file: StaticString = #file, line: UInt = #line) -> Never {
    let message = (error as? Realm.Error)?.localizedDescription ?? "\(error)"
    fatalError(message, file: file, line: line)
}
