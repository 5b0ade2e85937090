import Foundation
import Strata

/// `strata demo [--dir DIR]`: creates `demo.strata` in DIR (default: the current
/// directory), writes to it from this process and from a second one running at the same
/// time, and prints what the file then holds.
struct DemoCommand: Command {
    static let name = "demo"
    static let usage = "demo [--dir DIR]"
    static let summary = "write a small database from two processes and show what it holds"

    /// The pets this process writes; the second process writes `DemoWorkerCommand.pets`.
    static let pets: [(Int, String, String, Int)] = [
        (1, "Rex", "dog", 9), (2, "Tom", "cat", 4), (3, "Bubbles", "fish", 1),
        (4, "Luna", "dog", 2), (5, "Kiwi", "bird", 3),
    ]

    func run(_ arguments: [String]) throws -> Int32 {
        let directory = try Self.directory(from: arguments)
        let url = directory.appendingPathComponent("demo.strata")
        let configuration = Realm.Configuration(fileURL: url, objectTypes: [Pet.self])
        let removed = try Realm.deleteFiles(for: configuration)
        Output.line("Strata demo: \(url.path)\(removed ? " (replaced the old one)" : "")")
        let me = getpid()

        let realm = try Realm(configuration: configuration)
        for (id, name, species, age) in Self.pets {
            try realm.write(withDescription: "demo: add \(name)") {
                realm.add(Pet(value: ["id": id, "name": name, "species": species, "age": age, "writtenBy": Int(me)]))
            }
        }
        Output.line("[process \(me)] wrote \(Self.pets.count) pets, one write each; now at version \(realm.version)")
        let seenBefore = realm.objects(Pet.self).count  // holds this snapshot while the other process writes

        let worker = try runWorker(file: url.path)
        guard worker == 0 else {
            Output.error("the second process failed (exit status \(worker))")
            return 1
        }

        Output.line("[process \(me)] before refresh(): \(realm.objects(Pet.self).count) pets, version \(realm.version) (its snapshot)")
        realm.refresh()
        Output.line("[process \(me)] after refresh():  \(realm.objects(Pet.self).count) pets, version \(realm.version)")
        Output.line()
        report(realm, me: me)

        let expected = Self.pets.count + DemoWorkerCommand.pets.count
        guard seenBefore == Self.pets.count, realm.objects(Pet.self).count == expected else {
            Output.error("expected \(expected) pets after refresh, found \(realm.objects(Pet.self).count)")
            return 1
        }
        return 0
    }

    /// Runs `strata demo-worker FILE` as a second process, relaying its lines; returns its
    /// exit status.
    private func runWorker(file: String) throws -> Int32 {
        let process = Process()
        process.executableURL = Self.executable()
        process.arguments = [DemoWorkerCommand.name, file]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        Output.line("[process \(getpid())] started a second process, \(process.processIdentifier): strata \(DemoWorkerCommand.name)")
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        for line in output.split(separator: "\n") { Output.line(String(line)) }
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    /// What the file holds: counts, every pet and who wrote it, a few queries.
    private func report(_ realm: Realm, me: Int32) {
        let pets = realm.objects(Pet.self).sorted(byKeyPath: "id")
        Output.line("demo.strata at version \(realm.version) holds \(pets.count) pets:")
        let rows = pets.map { pet in
            [String(pet.id), pet.name, pet.species, String(pet.age), pet.writtenBy == Int(me) ? "this process" : "process \(pet.writtenBy)"]
        }
        Output.table(["id", "name", "species", "age", "written by"], Array(rows)).forEach { Output.line($0) }
        Output.line()
        let byMe = pets.filter("writtenBy == %@", Int(me)).count
        Output.line("written by this process: \(byMe), by the second process: \(pets.count - byMe)")
        Output.line("dogs: \(pets.filter("species == 'dog'").count), "
                    + "names starting with 'b' (any case): \(pets.filter("name BEGINSWITH[c] 'b'").map(\.name).joined(separator: ", ")), "
                    + "oldest: \(pets.max(ofProperty: "age") as Int? ?? 0), "
                    + "average age: \(String(format: "%.1f", pets.average(ofProperty: "age") as Double? ?? 0))")
    }

    /// `--dir DIR` as an absolute directory (created if missing), or the current directory.
    private static func directory(from arguments: [String]) throws -> URL {
        var rest = arguments[...]
        var path = FileManager.default.currentDirectoryPath
        while let word = rest.popFirst() {
            switch word {
            case "--dir":
                guard let value = rest.popFirst() else { throw UsageError("--dir needs a directory") }
                path = value
            default:
                throw UsageError("unexpected argument '\(word)'")
            }
        }
        let url = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
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
    static let usage = "demo-worker FILE"
    static let summary = "the second process of 'strata demo'"
    static let isListed = false

    /// The pets this process writes.
    static let pets: [(Int, String, String, Int)] = [
        (6, "Bella", "dog", 5), (7, "Milo", "cat", 7), (8, "Nemo", "fish", 2),
        (9, "Coco", "rabbit", 1), (10, "Shadow", "cat", 11),
    ]

    func run(_ arguments: [String]) throws -> Int32 {
        guard arguments.count == 1 else { throw UsageError("demo-worker needs exactly one FILE") }
        let me = getpid()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: arguments[0]),
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
