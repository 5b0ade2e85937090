import Foundation
import StrataStorage

/// `strata encrypt FILE OUT`: writes an encrypted copy of the plain FILE, with the key of
/// `--key-file` or `STRATA_KEY`.
struct EncryptCommand: Command {
    static let name = "encrypt"
    static let summary = "write an encrypted copy of a plain FILE to a new file"
    static let help = KeyCopy.help(
        synopsis: "FILE OUT --key-file KEY",
        description: "Writes a copy of the plain FILE to OUT, a new file, encrypted with the key of --key-file (or STRATA_KEY).",
        example: "strata encrypt app.strata app-encrypted.strata --key-file app.key")

    func run(_ arguments: [String]) throws -> Int32 {
        guard let key = try KeySource.key() else { throw UsageError("encrypt needs the new key: --key-file PATH or STRATA_KEY") }
        return try KeyCopy.run(arguments, from: nil, to: key)
    }
}

/// `strata decrypt FILE OUT`: writes a plain copy of the encrypted FILE.
struct DecryptCommand: Command {
    static let name = "decrypt"
    static let summary = "write a plain copy of an encrypted FILE to a new file"
    static let help = KeyCopy.help(
        synopsis: "FILE OUT --key-file KEY",
        description: "Writes a plain copy of FILE, encrypted with the key of --key-file (or STRATA_KEY), to OUT, a new file.",
        example: "strata decrypt app.strata app-plain.strata --key-file app.key")

    func run(_ arguments: [String]) throws -> Int32 {
        guard let key = try KeySource.key() else { throw UsageError("decrypt needs FILE's key: --key-file PATH or STRATA_KEY") }
        return try KeyCopy.run(arguments, from: key, to: nil)
    }
}

/// `strata rekey FILE OUT --new-key-file P`: writes a copy of the encrypted FILE encrypted
/// with another key.
struct RekeyCommand: Command {
    static let name = "rekey"
    static let summary = "write a copy of an encrypted FILE encrypted with another key"
    static let help = KeyCopy.help(
        synopsis: "FILE OUT --key-file KEY --new-key-file NEWKEY",
        description: "Writes a copy of FILE, encrypted with the key of --key-file (or STRATA_KEY), to OUT, a new file, "
            + "encrypted with the key of --new-key-file.",
        example: "strata rekey app.strata app-rekeyed.strata --key-file old.key --new-key-file new.key",
        extraOptions: [("--new-key-file PATH", "a file holding the key of the copy, in the same form")])

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, valued: ["--new-key-file"])
        guard let old = try KeySource.key() else { throw UsageError("rekey needs FILE's key: --key-file PATH or STRATA_KEY") }
        guard let path = options.value("--new-key-file") else { throw UsageError("rekey needs --new-key-file PATH") }
        return try KeyCopy.run(options.positional(2, "rekey takes a FILE and an OUT path"), from: old, to: try KeySource.key(inFile: path))
    }
}

/// What `encrypt`, `decrypt` and `rekey` share: the copy and its help.
enum KeyCopy {
    /// Copies the file of `words` (FILE, OUT) opened with `from` to OUT sealed for `to`
    /// (`StorageFile.writeCopy(to:encryptionKey:)`), printing both paths.
    static func run(_ words: [String], from: EncryptionKey?, to: EncryptionKey?) throws -> Int32 {
        let paths = try Arguments(words).positional(2, "takes a FILE and an OUT path")
        if FileManager.default.fileExists(atPath: paths[1]) {
            throw CommandFailure("'\(paths[1])' exists", hint: "give the name of a new file, or remove '\(paths[1])' first")
        }
        let file = try StorageFile.open(path: paths[0], options: .init(readOnly: true, encryptionKey: from))
        try file.writeCopy(to: paths[1], encryptionKey: to)
        Output.lines(["\(paths[0]) -> \(paths[1]) (\(to == nil ? "plain" : "encrypted"))"])
        return 0
    }

    /// The help of one of the commands.
    static func help(synopsis: String, description: String, example: String,
                     extraOptions: [(String, String)] = []) -> HelpText {
        HelpText(
            synopsis: synopsis,
            description: [description + " Every record is sealed again and the indexes are built again; FILE is not changed: "
                + "replace it with OUT only when no process has it open. Keys are read from files or the environment, never "
                + "from the arguments, which other users can see."],
            options: [("--key-file PATH", "a file holding the key: 128 hex digits or 64 bytes (or STRATA_KEY, in hex)")] + extraOptions,
            examples: [example],
            exitStatus: [(0, "success"), (1, "FILE cannot be read with the key, or OUT exists or cannot be written"),
                         (2, "bad arguments")])
    }
}
