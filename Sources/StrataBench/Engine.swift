import Foundation

/// Whether an engine runs W8b (group commits through `writeAsync`).
enum AsyncCommitSupport {
    /// Not part of this engine's workload (the baselines).
    case notApplicable
    /// The engine should have it but its API lacks it: reported as "n/a".
    case missing
    case available
}

/// One database under test. Each method is one operation of the workload; the runner times
/// the timed ones and compares the returned check sums across engines.
protocol BenchEngine: AnyObject {
    /// Opens the database inside `directory`, creating it if it is not there (several
    /// processes open one in the multi-process rows); `durable: false` turns off commit flushes.
    init(directory: URL, durable: Bool) throws

    /// W1: inserts Person(i) for i in 0..<n, `Workload.batchRows` per write transaction.
    func insert(count n: Int) throws
    /// Untimed: the number of objects stored.
    func rowCount() throws -> Int
    /// W10: bytes of the database file.
    func fileSize() throws -> Int
    /// W2: one run of the count query.
    func countQuery() throws -> Int
    /// W3: looks up each id, returning the sum of age + name byte count + last name byte.
    func pkLookup(_ ids: [Int]) throws -> Int
    /// W4: looks up `name-<k>` for each k, returning sum(age) * 100,000 + found.
    func indexLookup(_ ids: [Int]) throws -> Int
    /// W5: sets score = j on object ids[j], all in one write transaction; returns updates done.
    func update(_ ids: [Int]) throws -> Int
    /// Untimed: the sum of Int(score * 2) over all objects.
    func scoreSum2() throws -> Int
    /// W6: the sum of age + name byte count over all objects, and the number of objects.
    func enumerate() throws -> (rows: Int, sum: Int)
    /// W7: the first `Workload.sortLimit` objects by (age, name), as `Workload.sortHash`.
    func sortLimit() throws -> Int
    /// W11: the number of objects whose id is in `ids` (distinct) and the sum of their ages.
    func inQuery(_ ids: [Int]) throws -> QueryResult
    /// W12: the objects whose name begins with `prefix`, through the name index.
    func prefixQuery(_ prefix: String) throws -> QueryResult
    /// W13: the objects whose id is in `range`, through the primary key.
    func rangeQuery(_ range: ClosedRange<Int>) throws -> QueryResult
    /// Untimed, before W14: stores `Workload.teams` teams of `Workload.teamSize` random persons
    /// below `n`.
    func makeTeams(below n: Int) throws
    /// W14: the teams with `ANY members.age > Workload.anyMinAge`.
    func anyQuery() throws -> QueryResult
    /// W15: the teams matching `Workload.subqueryPredicate`.
    func subqueryQuery() throws -> QueryResult
    /// Untimed, after W15: deletes the teams again.
    func deleteTeams() throws
    /// Untimed, before W16: stores `Workload.pets` pets, pet `p` owned by person
    /// `Workload.petOwners(below: n)[p]`.
    func makePets(below n: Int) throws
    /// W16: every pet's owner's name, `Workload.linkPasses` times over: the links followed and
    /// the sum of the names' byte counts.
    func followOwners() throws -> QueryResult
    /// W17: how many pets each person of `ids` owns (its backlinks), the person found first by
    /// its primary key: the persons and the sum.
    func countPets(_ ids: [Int]) throws -> QueryResult
    /// Untimed, after W17: deletes the pets again.
    func deletePets() throws
    /// W8: `count` durable write transactions, inserting Person(first + j) each.
    func smallCommits(from first: Int, count: Int) throws
    /// Whether `asyncCommits` is part of this engine's workload.
    var asyncCommitSupport: AsyncCommitSupport { get }
    /// W8b: `count` queued writes of Person(first + j), returning once every one is durable.
    func asyncCommits(from first: Int, count: Int) throws
    /// Before a batch of reads: moves to the newest committed version. The baselines begin a
    /// read transaction per call anyway; a Strata Realm keeps its snapshot until `refresh()`.
    func refreshSnapshot() throws
    /// W9: deletes every object and index entry in one write transaction.
    func deleteAll() throws
    /// Untimed: objects plus index entries left.
    func entriesLeft() throws -> Int
}

extension BenchEngine {
    var asyncCommitSupport: AsyncCommitSupport { .notApplicable }
    func asyncCommits(from first: Int, count: Int) throws {}
    func refreshSnapshot() throws {}
}

/// What one query of W11-W17 found: how many objects, and the sum of one of their integer
/// properties (a person's `age`, a team's `id`).
struct QueryResult {
    var count = 0
    var sum = 0

    static func += (total: inout QueryResult, one: QueryResult) {
        total.count += one.count
        total.sum += one.sum
    }
}

/// An engine failure with a message naming the failing call.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
