import Foundation
import Strata

/// `strata demo [--dir DIR] [--json]`: creates `demo.strata` in DIR (default: the current
/// directory), writes to it from this process and from a second one running at the same
/// time, and prints what the file then holds.
struct DemoCommand: Command {
    static let name = "demo"
    static let runsInWorker = false
    static let summary = "write a small database from two processes and show what it holds"
    static let help = HelpText(
        synopsis: "[--dir DIR] [--json]",
        description: [
            "Creates demo.strata in DIR (replacing an older one), adds five pets from this process, one "
                + "write each, then starts a second process (strata demo-worker) that opens the same file "
                + "while this one holds a snapshot, adds five more and gives Rex a birthday. This process then "
                + "refreshes, sees the other's writes, and prints what the file holds and a few queries. The "
                + "file is then ready for the other commands (strata info DIR/demo.strata). Shows progress "
                + "on stderr when it is a terminal.",
        ],
        options: [("--dir DIR", "where to create demo.strata (default: the current directory); DIR is created "
                      + "if missing, but not its parent"),
                  ("--json", "instead of the story, one JSON object: {\"file\", \"version\", \"processes\", \"pets\"}")],
        examples: ["strata demo --dir /tmp/demo && strata log /tmp/demo/demo.strata"],
        exitStatus: [(0, "success"), (1, "the file cannot be written or the second process failed"),
                     (2, "bad arguments")])

    /// The pets this process writes; the second process writes `DemoWorkerCommand.pets`.
    static let pets: [(Int, String, String, Int)] = [
        (1, "Rex", "dog", 9), (2, "Tom", "cat", 4), (3, "Bubbles", "fish", 1),
        (4, "Luna", "dog", 2), (5, "Kiwi", "bird", 3),
    ]

    /// The commits of a demo: this process's pets, the other's, and the birthday.
    static let commits = pets.count + DemoWorkerCommand.pets.count + 1

    /// What `demo --json` prints.
    struct Result: Encodable {
        /// A process of the demo and how many pets it wrote last.
        struct Writer: Encodable { let pid: Int32; let pets: Int }
        /// A pet and the process id that wrote it last.
        struct PetJSON: Encodable { let id: Int; let name: String; let species: String; let age: Int; let writtenBy: Int }
        let file: String
        let version: UInt64
        let processes: [Writer]
        let pets: [PetJSON]
    }

    func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, flags: ["--json"], valued: ["--dir"])
        _ = try options.positional(0, "demo takes no FILE; give a directory with --dir")
        let story = !options.has("--json")
        let url = try Self.directory(options.value("--dir")).appendingPathComponent("demo.strata")
        let configuration = Realm.Configuration(fileURL: url, objectTypes: [Pet.self])
        let removed = try Realm.deleteFiles(for: configuration)
        let me = getpid()
        let progress = Progress("demo", unit: "commits", total: Self.commits)
        defer { progress.finish() }
        func say(_ text: String = "") { if story { Output.line(text) } }
        say("Strata demo: \(url.path)\(removed ? " (replaced the old one)" : "")")

        let realm = try Realm(configuration: configuration)
        realm.autorefresh = false  // keeps its snapshot until refresh(), to show the difference
        for (n, (id, name, species, age)) in Self.pets.enumerated() {
            try realm.write(withDescription: "demo: add \(name)") {
                realm.add(Pet(value: ["id": id, "name": name, "species": species, "age": age, "writtenBy": Int(me)]))
            }
            progress.update(n + 1)
        }
        say("[process \(me)] wrote \(Self.pets.count) pets, one write each; now at version \(realm.version)")
        let seenBefore = realm.objects(Pet.self).count  // holds this snapshot while the other process writes

        let (worker, workerLines) = try runWorker(file: url.path, say: say)
        workerLines.forEach { say($0) }
        guard worker.status == 0 else {
            throw CommandFailure("the second process (\(worker.pid)) failed with exit status \(worker.status)",
                                 hint: "its output is above; run 'strata demo-worker \(url.path)' to see it alone")
        }
        progress.update(Self.commits)

        say("[process \(me)] before refresh(): \(realm.objects(Pet.self).count) pets, version \(realm.version) (its snapshot)")
        realm.refresh()
        say("[process \(me)] after refresh():  \(realm.objects(Pet.self).count) pets, version \(realm.version)")
        progress.finish()
        let expected = Self.pets.count + DemoWorkerCommand.pets.count
        guard seenBefore == Self.pets.count, realm.objects(Pet.self).count == expected else {
            throw CommandFailure("expected \(expected) pets after refresh, found \(realm.objects(Pet.self).count)")
        }
        if story {
            say()
            report(realm, me: me)
        } else {
            Output.json(Self.result(realm, file: url.path, me: me, worker: worker.pid))
        }
        return 0
    }

    /// Runs `strata demo-worker FILE` as a second process and returns its pid, exit status and
    /// output lines.
    private func runWorker(file: String, say: (String) -> Void) throws -> ((pid: Int32, status: Int32), [String]) {
        let process = Process()
        process.executableURL = Self.executable()
        process.arguments = [DemoWorkerCommand.name, file]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        say("[process \(getpid())] started a second process, \(process.processIdentifier): strata \(DemoWorkerCommand.name)")
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        return ((process.processIdentifier, status), output.split(separator: "\n").map(String.init))
    }

    /// What the file holds: every pet and who wrote it, counts per process, a few queries.
    private func report(_ realm: Realm, me: Int32) {
        let pets = realm.objects(Pet.self).sorted(byKeyPath: "id")
        Output.line("demo.strata at version \(realm.version) holds \(pets.count) pets:")
        let rows = pets.map { pet in
            [String(pet.id), pet.name, pet.species, String(pet.age), pet.writtenBy == Int(me) ? "this process" : "process \(pet.writtenBy)"]
        }
        Output.lines(Output.table(["id", "name", "species", "age", "written by"], Array(rows)))
        Output.line()
        let byMe = pets.filter("writtenBy == %@", Int(me)).count
        Output.line("written by this process: \(byMe), by the second process: \(pets.count - byMe)")
        Output.line("queries:")
        let queries = [
            ["species == 'dog'", Output.count(pets.filter("species == 'dog'").count, "pet")],
            ["name BEGINSWITH[c] 'b'", pets.filter("name BEGINSWITH[c] 'b'").map(\.name).joined(separator: ", ")],
            ["max(age)", String(pets.max(ofProperty: "age") as Int? ?? 0)],
            ["average(age)", String(format: "%.1f", pets.average(ofProperty: "age") as Double? ?? 0)],
        ]
        Output.lines(Output.table(nil, queries, shrinking: [[1]]))
    }

    /// The `--json` document of the finished demo.
    private static func result(_ realm: Realm, file: String, me: Int32, worker: Int32) -> Result {
        let pets = realm.objects(Pet.self).sorted(byKeyPath: "id").map {
            Result.PetJSON(id: $0.id, name: $0.name, species: $0.species, age: $0.age, writtenBy: $0.writtenBy)
        }
        let processes = [me, worker].map { pid in Result.Writer(pid: pid, pets: pets.filter { $0.writtenBy == Int(pid) }.count) }
        return Result(file: file, version: realm.version, processes: processes, pets: Array(pets))
    }

    /// `path` as an absolute directory, or the current directory. A missing directory is
    /// created when its parent exists; a missing parent is a failure (a mistyped path makes
    /// no directories).
    private static func directory(_ path: String?) throws -> URL {
        let url = URL(fileURLWithPath: path ?? FileManager.default.currentDirectoryPath, isDirectory: true).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CommandFailure("'\(url.path)' is not a directory") }
            return url
        }
        let parent = url.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("the directory '\(parent.path)' does not exist",
                                 hint: "give --dir an existing directory, or one whose parent exists")
        }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        return url
    }

    /// This program's absolute path: `CommandLine.arguments[0]` resolved against the current
    /// directory or `PATH`, else `/proc/self/exe`.
    static func executable() -> URL {
        let first = CommandLine.arguments[0]
        let fm = FileManager.default
        if first.contains("/") {
            let url = URL(fileURLWithPath: first, relativeTo: URL(fileURLWithPath: fm.currentDirectoryPath, isDirectory: true))
            if fm.isExecutableFile(atPath: url.path) { return url.standardizedFileURL }
        } else {
            for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
                let url = URL(fileURLWithPath: String(directory)).appendingPathComponent(first)
                if fm.isExecutableFile(atPath: url.path) { return url.standardizedFileURL }
            }
        }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }
}

/// `strata demo-worker FILE`: the second process of `strata demo`. Opens FILE while the
/// first process holds it open, reports what it sees, and writes more pets.
struct DemoWorkerCommand: Command {
    static let name = "demo-worker"
    static let runsInWorker = false
    static let summary = "the second process of 'strata demo'"
    static let help = HelpText(
        synopsis: "FILE",
        description: ["The second process of 'strata demo': opens FILE while the first process holds it "
                      + "open, reports what it sees, adds five pets and gives Rex a birthday, one write each."],
        examples: ["strata demo-worker demo.strata"],
        exitStatus: [(0, "success"), (1, "the file cannot be written"), (2, "bad arguments")])
    static let isListed = false

    /// The pets this process writes.
    static let pets: [(Int, String, String, Int)] = [
        (6, "Bella", "dog", 5), (7, "Milo", "cat", 7), (8, "Nemo", "fish", 2),
        (9, "Coco", "rabbit", 1), (10, "Shadow", "cat", 11),
    ]

    func run(_ arguments: [String]) throws -> Int32 {
        let file = try Arguments(arguments).positional(1, "demo-worker takes one FILE")[0]
        let me = getpid()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: file),
                                                                 objectTypes: [Pet.self]))
        let names = realm.objects(Pet.self).sorted(byKeyPath: "id").map(\.name)
        Output.line("  [process \(me)] opened the file at version \(realm.version): sees \(names.count) pets (\(names.joined(separator: ", ")))")
        for (id, name, species, age) in Self.pets {
            try realm.write(withDescription: "demo: add \(name)") {
                realm.add(Pet(value: ["id": id, "name": name, "species": species, "age": age, "writtenBy": Int(me)]))
            }
        }
        try realm.write(withDescription: "demo: Rex has a birthday") {
            realm.create(Pet.self, value: ["id": 1, "age": 10, "writtenBy": Int(me)], update: .modified)
        }
        Output.line("  [process \(me)] wrote \(Self.pets.count) pets and gave Rex a birthday, one write each; now at version \(realm.version)")
        return 0
    }
}
