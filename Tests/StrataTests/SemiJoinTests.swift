import Foundation
import XCTest
@testable import Strata
import StrataStorage

final class SJMember: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var age = 0
    @Persisted var score = 0.0
}

final class SJTeam: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var members: List<SJMember>
}

/// `ANY members.age > x` and `SUBQUERY(members, …).@count` over lists of objects give the same
/// answers whether each member's row is read (few members against a large class) or the
/// members are looked up among the objects one pass over the class found (a semi-join, when
/// the lists hold many members for the class's size): docs/QUERY-LANGUAGE.md, "Semi-joins".
final class SemiJoinTests: StrataTestCase {
    private var realm: Realm!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm(types: [SJMember.self, SJTeam.self])
        try realm.write {
            for i in 0..<400 { realm.create(SJMember.self, value: ["id": i, "age": i % 100, "score": Double(i % 37)]) }
        }
    }

    override func tearDownWithError() throws {
        realm = nil
        try super.tearDownWithError()
    }

    /// Teams `0..<count`, team t holding `size` members chosen by `t`, with repeats.
    private func makeTeams(_ count: Int, size: Int) throws {
        var rng = SplitMix64(seed: UInt64(count * 1_000 + size))
        try realm.write {
            realm.delete(realm.objects(SJTeam.self))
            for t in 0..<count {
                let team = realm.create(SJTeam.self, value: ["id": t])
                for _ in 0..<size { team.members.append(realm.object(ofType: SJMember.self, forPrimaryKey: Int(rng.next() % 400))!) }
                if t % 3 == 0, let first = team.members.first { team.members.append(first) }  // a repeat
            }
        }
    }

    /// The ids of the teams `query` finds, and those `model` says it should.
    private func assertFinds(_ query: String, _ model: (SJTeam) -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let found = realm.objects(SJTeam.self).filter(query).map(\.id).sorted()
        let expected = realm.objects(SJTeam.self).filter(model).map(\.id).sorted()
        XCTAssertEqual(found, expected, query, file: file, line: line)
    }

    private func assertEveryQuery(file: StaticString = #filePath, line: UInt = #line) {
        assertFinds("ANY members.age > 90", { $0.members.contains { $0.age > 90 } }, file: file, line: line)
        assertFinds("ANY members.age BETWEEN {10, 12}", { $0.members.contains { (10...12).contains($0.age) } }, file: file, line: line)
        assertFinds("ANY members.score > 30 AND id > 2", { $0.id > 2 && $0.members.contains { $0.score > 30 } }, file: file, line: line)
        assertFinds("NOT ANY members.age < 50", { !$0.members.contains { $0.age < 50 } }, file: file, line: line)
        assertFinds("SUBQUERY(members, $m, $m.age > 50 AND $m.score > 20).@count > 1",
                    { $0.members.filter { $0.age > 50 && $0.score > 20 }.count > 1 }, file: file, line: line)
        assertFinds("SUBQUERY(members, $m, $m.age < 30).@count == 0", { !$0.members.contains { $0.age < 30 } }, file: file, line: line)
    }

    func testFewMembersAgainstTheirClassAreReadOneByOne() throws {
        // 2 teams of 3 members: 6 × 16 < 400 objects, so each member's row is read.
        try makeTeams(2, size: 3)
        assertEveryQuery()
    }

    func testManyMembersAreLookedUpAmongWhatOnePassFound() throws {
        // 60 teams of 8 members: far more than 400 / 16.
        try makeTeams(60, size: 8)
        assertEveryQuery()
        // A change in a write is seen by the next query's pass.
        try realm.write {
            realm.object(ofType: SJMember.self, forPrimaryKey: 5)!.age = 99
            realm.objects(SJTeam.self).first!.members.append(realm.object(ofType: SJMember.self, forPrimaryKey: 5)!)
            assertEveryQuery()
        }
        // Deleted members leave their lists.
        try realm.write { realm.delete(realm.objects(SJMember.self).filter("age > 95")) }
        assertEveryQuery()
    }
}
