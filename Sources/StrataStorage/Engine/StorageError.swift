import LMDB

/// What went wrong in the storage layer, in terms the object layer can turn into
/// `Realm.Error` codes with a message a person can act on.
package struct StorageError: Error, CustomStringConvertible {
    /// The broad kind of failure; maps one to one onto `Realm.Error.Code`s.
    package enum Kind: Sendable {
        case fileAccess, permissionDenied, fileNotFound, invalidDatabase, unsupportedFormat
        case schemaMismatch, invalidInput, outOfSpace, fail
        case alreadyOpen, fileExists, fileOperationFailed
    }

    package let kind: Kind
    package let message: String
    /// The LMDB error behind it, if any.
    package let underlying: LMDBError?

    package init(_ kind: Kind, _ message: String, underlying: LMDBError? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
    }

    package var description: String { message }

    /// Wraps an LMDB error with what was being done (`context`).
    package static func lmdb(_ error: LMDBError, _ context: String) -> StorageError {
        switch error {
        case .mapFull:
            return StorageError(.outOfSpace, "\(context): the database reached its maximum size (\(error.message))", underlying: error)
        case .invalid, .versionMismatch:
            return StorageError(.invalidDatabase, "\(context): not a Strata database (\(error.message))", underlying: error)
        default:
            if error.code == ENOSPC {
                return StorageError(.outOfSpace, "\(context): no space left on device", underlying: error)
            }
            return StorageError(.fail, "\(context): \(error.message)", underlying: error)
        }
    }
}

import Glibc
