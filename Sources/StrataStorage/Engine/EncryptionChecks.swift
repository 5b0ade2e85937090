import LMDB

/// The checks that a file is opened with the key it was encrypted with, or with none when it
/// is plain (docs/ENCRYPTION.md, "The key check"). Every failure is `.invalidDatabase`.
enum EncryptionChecks {
    /// Checks the meta `encryption` marker of `file` against its key, at open: a file with no
    /// format yet (new) passes, and is encrypted by its first commit when a key is given.
    static func checkMarker(of file: StorageFile) throws(StorageError) {
        try StorageError.translating("Reading '\(file.path)'") {
            let txn = try Transaction(file.environment, readOnly: true)
            defer { txn.abort() }
            guard let meta = try txn.openDatabase(MetaKeys.database),
                  let _: UInt32 = try MetaKeys.readInteger(txn, meta, MetaKeys.format) else { return }
            try check(try MetaKeys.readBytes(txn, meta, MetaKeys.encryption), file)
        }
    }

    /// Checks the marker a transaction read (`marker`, nil when absent) of a file that has a
    /// format, against the file's key.
    static func check(_ marker: [UInt8]?, _ file: StorageFile) throws(StorageError) {
        switch (marker, file.encryption) {
        case (nil, nil):
            return
        case (nil, _?):
            throw notEncrypted(file)
        case (let marker?, nil):
            guard marker.first == FileEncryption.scheme else { throw unknownScheme(marker, file) }
            throw encrypted(file)
        case (let marker?, let encryption?):
            guard marker.first == FileEncryption.scheme else { throw unknownScheme(marker, file) }
            if marker != encryption.marker { throw wrongKey(file) }
        }
    }

    /// Checks that `key` is the one `file`, already open in this process, was opened with.
    static func checkKey(_ key: EncryptionKey?, of file: StorageFile) throws(StorageError) {
        if key == file.encryption?.key { return }
        if key == nil { throw encrypted(file) }
        if file.encryption == nil { throw notEncrypted(file) }
        throw wrongKey(file)
    }

    private static func notEncrypted(_ file: StorageFile) -> StorageError {
        StorageError(.invalidDatabase, "'\(file.path)' is not encrypted: open it without an encryptionKey (writeCopy(toFile:encryptionKey:) writes an encrypted copy)")
    }

    private static func encrypted(_ file: StorageFile) -> StorageError {
        StorageError(.invalidDatabase, "'\(file.path)' is encrypted: open it with its encryptionKey")
    }

    private static func wrongKey(_ file: StorageFile) -> StorageError {
        StorageError(.invalidDatabase, "'\(file.path)' cannot be opened: wrong encryption key")
    }

    private static func unknownScheme(_ marker: [UInt8], _ file: StorageFile) -> StorageError {
        StorageError(.invalidDatabase, "'\(file.path)' is encrypted with scheme \(marker.first ?? 0), which this version of Strata does not read")
    }
}

extension StorageFile {
    /// Checks that `key` is the key this open file was opened with (nil: none); throws
    /// `.invalidDatabase` saying what is wrong otherwise.
    package func checkEncryptionKey(_ key: EncryptionKey?) throws(StorageError) {
        try EncryptionChecks.checkKey(key, of: self)
    }
}
