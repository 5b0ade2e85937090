import LMDB

/// What went wrong in the storage layer, with the public error code it stands for and a
/// message a person can act on.
@usableFromInline
package struct StorageError: Error, CustomStringConvertible {
    /// The kind of failure: RealmSwift's `Realm.Error.Code`s, with the same raw values, so
    /// that the public error is this code as it is.
    package enum Code: Int, Sendable, CaseIterable {
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

    package let code: Code
    package let message: String
    /// The LMDB error behind it, if any.
    package let underlying: LMDBError?
    /// The file the error is about when it is not the database file (its `.lock` file).
    package let path: String?

    package init(_ code: Code, _ message: String, underlying: LMDBError? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.path = path
    }

    @usableFromInline package var description: String { message }

    /// Runs LMDB calls and the storage layer's own checks, and translates the LMDB error one
    /// throws, once, with what was being done (`context`): the boundary between the LMDB
    /// binding and the storage layer. A storage error passes as it is.
    @inline(__always)
    static func translating<T>(_ context: @autoclosure () -> String,
                               _ body: () throws -> T) throws(StorageError) -> T {
        do {
            return try body()
        } catch let error as StorageError {
            throw error
        } catch let error as LMDBError {
            throw lmdb(error, context())
        } catch {
            throw StorageError(.fail, "\(context()): \(error)")
        }
    }

    /// `translating` for LMDB calls that also run the caller's code (a closure called per
    /// row or entry): what that code throws passes on unchanged.
    @inline(__always)
    static func translatingLMDBErrors<T>(_ context: @autoclosure () -> String,
                                         _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as LMDBError {
            throw lmdb(error, context())
        }
    }

    /// Wraps an LMDB error with what was being done (`context`).
    package static func lmdb(_ error: LMDBError, _ context: String) -> StorageError {
        switch error {
        case .mapFull:
            return StorageError(.addressSpaceExhausted, "\(context): the write needs more than this process has mapped of the file; the map grows before the next transaction when no snapshot of the file is open in this process (frozen objects, Realms kept on other threads), so release them and write again, or in smaller writes", underlying: error)
        case .mapResized:
            return StorageError(.addressSpaceExhausted, "\(context): another process grew the file beyond this process's map, which cannot grow while this process holds snapshots of the file (frozen objects, Realms kept on other threads); release them and try again", underlying: error)
        case .corrupted, .pageNotFound, .cursorFull, .pageFull, .faulted:
            return StorageError(.invalidDatabase, "\(context): the file is damaged (\(error.message)); run `strata check` on it", underlying: error)
        case .invalid, .versionMismatch:
            return StorageError(.invalidDatabase, "\(context): not a Strata database (\(error.message))", underlying: error)
        default:
            if error.code == ENOSPC || error.code == EDQUOT {
                return StorageError(.outOfDiskSpace, "\(context): no space left on device (earlier commits are intact; free some space and write again)", underlying: error)
            }
            if error.code == ENOMEM {
                return StorageError(.addressSpaceExhausted, "\(context): the process has no address space left to map the file (\(error.message)); close other files, or raise the limit (ulimit -v)", underlying: error)
            }
            return StorageError(.fail, "\(context): \(error.message)", underlying: error)
        }
    }
}

import Glibc
