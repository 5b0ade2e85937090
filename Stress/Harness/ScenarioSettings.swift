import Foundation
import Strata
import StrataStorage

/// The flags every scenario takes, and where its files go.
///
/// `--duration S` (default 20), `--writers W`, `--readers R`, `--observers O` (defaults per
/// scenario), `--seed N` (default 1; every worker derives its own from it), `--file F` (the
/// database, replaced; default a new temporary directory, removed after a run that passed)
/// and `--nosync` (commits without a flush).
struct ScenarioSettings {
    let scenario: String
    let options: Arguments
    let duration: Double
    let writers: Int
    let readers: Int
    let observers: Int
    let seed: UInt64
    let path: String
    let nosync: Bool
    private let isTemporary: Bool

    /// The settings of `scenario` from `options`, with its default numbers of processes.
    /// `fileSuffix` names the file when one `--file` serves several scenarios (`all`).
    init(_ scenario: String, _ options: Arguments, writers: Int, readers: Int, observers: Int, fileSuffix: Bool = false) {
        self.scenario = scenario
        self.options = options
        duration = options.double("duration", default: 20)
        self.writers = options.int("writers", default: writers)
        self.readers = options.int("readers", default: readers)
        self.observers = options.int("observers", default: observers)
        seed = UInt64(options.int("seed", default: 1))
        nosync = options.flag("nosync")
        let given = options.string("file", default: "")
        isTemporary = given.isEmpty
        if isTemporary {
            path = NSTemporaryDirectory() + "strata-stress-\(getpid())/\(scenario).strata"
        } else if fileSuffix {
            let url = URL(fileURLWithPath: given)
            let stem = url.deletingPathExtension().lastPathComponent + "-" + scenario
            path = url.deletingLastPathComponent().appendingPathComponent(stem).appendingPathExtension(url.pathExtension).path
        } else {
            path = given
        }
        guard duration > 0, self.writers >= 1, self.readers >= 0, self.observers >= 0 else {
            fail("\(scenario) needs --duration > 0, at least one writer, and no negative counts")
        }
    }

    /// The directory of the writers' commit logs, next to the file.
    var logDirectory: String { path + ".logs" }

    /// The arguments every worker gets: role, file, slot, start number, its own seed.
    func workerArguments(_ role: Role, slot: Int, incarnation: Int) -> [String] {
        let workerSeed = SplitMix64.mix(seed &+ UInt64(slot) << 32 &+ UInt64(incarnation) << 16 &+ UInt64(role.rawValue.utf8.count))
        return ["worker", role.rawValue, "--file", path, "--slot", "\(slot)", "--incarnation", "\(incarnation)",
                "--seed", "\(workerSeed >> 1)"] + (nosync ? ["--nosync"] : [])
    }

    /// Makes the directory, removes an earlier file of the same name and its logs.
    func prepareFiles() throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Realm.deleteFiles(for: Realm.Configuration(fileURL: URL(fileURLWithPath: path)))
        try? FileManager.default.removeItem(atPath: logDirectory)
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
    }

    /// After a run: removes a temporary file when the run passed; otherwise says where it is.
    func cleanUp(passed: Bool) {
        guard isTemporary && passed else {
            emit("\(scenario): the file is kept at \(path)")
            return
        }
        for suffix in ["", "-lock", ".lock", ".logs"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        rmdir((path as NSString).deletingLastPathComponent)
    }
}
