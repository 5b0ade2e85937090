import Foundation

import Strata

/// The workload's model, declared exactly as a RealmSwift user declares it.
final class Person: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var age = 0
    @Persisted var score = 0.0
    /// W17: the pets whose owner is this person.
    @Persisted(originProperty: "owner") var pets: LinkingObjects<Pet>
}

/// Strata through its public, RealmSwift-style API only, written as a user would write it.
final class StrataEngine: BenchEngine {
    private let fileURL: URL
    let realm: Realm

    convenience init(directory: URL, durable: Bool) throws {
        try self.init(directory: directory, durable: durable, oldValues: true, encryptionKey: nil)
    }

    /// Opens `bench.realm` in `directory`; `oldValues` is `historyRecordsOldValues`, and the
    /// file is encrypted with `encryptionKey` (nil: a plain file).
    init(directory: URL, durable: Bool, oldValues: Bool, encryptionKey: Data?) throws {
        fileURL = directory.appendingPathComponent("bench.realm")
        var config = Realm.Configuration(fileURL: fileURL, objectTypes: [Person.self, Team.self, Pet.self])
        config.syncOnCommit = durable
        config.historyRecordsOldValues = oldValues
        config.encryptionKey = encryptionKey
        realm = try Realm(configuration: config)
    }

    /// The fixed key of the `strata-enc` engine: a benchmark file holds nothing secret.
    static let benchKey = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 7) })

    func insert(count n: Int) throws {
        for batch in stride(from: 0, to: n, by: Workload.batchRows) {
            try realm.write {
                for i in batch..<min(batch + Workload.batchRows, n) { realm.add(makePerson(i)) }
            }
        }
    }

    func rowCount() throws -> Int { realm.objects(Person.self).count }

    func fileSize() throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: fileURL.path)
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    func countQuery() throws -> Int {
        realm.objects(Person.self).filter("age > 50 AND name BEGINSWITH 'name-1'").count
    }

    func pkLookup(_ ids: [Int]) throws -> Int {
        var sum = 0
        for id in ids {
            let person = realm.object(ofType: Person.self, forPrimaryKey: id)!
            let name = person.name
            sum += person.age + name.utf8.count + Int(name.utf8.last!)
        }
        return sum
    }

    func indexLookup(_ ids: [Int]) throws -> Int {
        var sum = 0, found = 0
        for k in ids {
            sum += realm.objects(Person.self).filter("name == %@", "name-\(k)").first!.age
            found += 1
        }
        return sum * 100_000 + found
    }

    func update(_ ids: [Int]) throws -> Int {
        var updated = 0
        try realm.write {
            for (j, id) in ids.enumerated() {
                realm.object(ofType: Person.self, forPrimaryKey: id)!.score = Double(j)
                updated += 1
            }
        }
        return updated
    }

    func scoreSum2() throws -> Int {
        var sum = 0
        for person in realm.objects(Person.self) { sum += Int(person.score * 2) }
        return sum
    }

    func enumerate() throws -> (rows: Int, sum: Int) {
        var rows = 0, sum = 0
        for person in realm.objects(Person.self) {
            sum += person.age + person.name.utf8.count
            rows += 1
        }
        return (rows, sum)
    }

    func sortLimit() throws -> Int {
        let sorted = realm.objects(Person.self)
            .sorted(by: [SortDescriptor(keyPath: "age"), SortDescriptor(keyPath: "name")])
        var top: [(id: Int, age: Int, nameLength: Int)] = []
        for i in 0..<min(Workload.sortLimit, sorted.count) {
            let person = sorted[i]
            top.append((person.id, person.age, person.name.utf8.count))
        }
        return Workload.sortHash(top)
    }

    func smallCommits(from first: Int, count: Int) throws {
        for j in 0..<count {
            try realm.write { realm.add(makePerson(first + j)) }
        }
    }

    var asyncCommitSupport: AsyncCommitSupport { .available }

    /// W8b: one `writeAsync` per object, then this thread's run loop runs until every
    /// completion has been called (each after the group holding its write was flushed).
    func asyncCommits(from first: Int, count: Int) throws {
        var completed = 0
        var failure: Error?
        for j in 0..<count {
            let id = first + j
            realm.writeAsync({ self.realm.add(self.makePerson(id)) }, onComplete: { error in
                if let error, failure == nil { failure = error }
                completed += 1
            })
        }
        let deadline = Date(timeIntervalSinceNow: 600)  // a safety net against a lost completion
        while completed < count && Date() < deadline {
            _ = RunLoop.current.run(mode: .default, before: deadline)
        }
        if let failure { throw failure }
        if completed < count { throw BenchError("writeAsync: only \(completed) of \(count) completions were called") }
    }

    func refreshSnapshot() throws { realm.refresh() }

    func deleteAll() throws {
        try realm.write { realm.deleteAll() }
    }

    func entriesLeft() throws -> Int {
        // The public API cannot list index entries; a lookup by a deleted name goes through the index.
        realm.objects(Person.self).count + realm.objects(Person.self).filter("name == %@", "name-0").count
    }

    private func makePerson(_ i: Int) -> Person {
        let person = Person()
        person.id = i
        person.name = "name-\(i)"
        person.age = Workload.age(i)
        person.score = Workload.score(i)
        return person
    }
}
