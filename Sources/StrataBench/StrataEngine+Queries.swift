import Foundation
import Strata
import StrataStorage

/// W14 and W15: a team with a list of persons.
final class Team: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var members: List<Person>
}

/// W11-W15 through the public API: string queries the planner answers from the primary key
/// or the name index, and queries over lists. Each query's `explain()` is printed on stderr
/// the first time.
extension StrataEngine {
    func inQuery(_ ids: [Int]) throws -> QueryResult {
        result(.w11, realm.objects(Person.self).filter("id IN %@", ids), sum: "age")
    }

    func prefixQuery(_ prefix: String) throws -> QueryResult {
        result(.w12, realm.objects(Person.self).filter("name BEGINSWITH %@", prefix), sum: "age")
    }

    func rangeQuery(_ range: ClosedRange<Int>) throws -> QueryResult {
        result(.w13, realm.objects(Person.self).filter("id BETWEEN {%@, %@}", range.lowerBound, range.upperBound),
               sum: "age")
    }

    func makeTeams(below n: Int) throws {
        try realm.write {
            for (t, members) in Workload.teamMembers(below: n).enumerated() {
                let team = Team()
                team.id = t
                for id in members { team.members.append(realm.object(ofType: Person.self, forPrimaryKey: id)!) }
                realm.add(team)
            }
        }
    }

    func anyQuery() throws -> QueryResult {
        result(.w14, realm.objects(Team.self).filter("ANY members.age > %@", Workload.anyMinAge), sum: "id")
    }

    func subqueryQuery() throws -> QueryResult {
        result(.w15, realm.objects(Team.self).filter(Workload.subqueryPredicate), sum: "id")
    }

    func deleteTeams() throws {
        try realm.write { realm.delete(realm.objects(Team.self)) }
    }

    /// The count of `results` and the sum of `property` over them.
    private func result<T: Object>(_ op: Op, _ results: Results<T>, sum property: String) -> QueryResult {
        if explainedOps.insert(op).inserted {
            let plan = results.explain()
            printToStandardError("# strata plan of \(op.rawValue): \(plan.count > 300 ? String(plan.prefix(300)) + "…" : plan)")
        }
        return QueryResult(count: results.count, sum: results.sum(ofProperty: property))
    }
}

/// The ops whose Strata plan was printed.
private var explainedOps = Set<Op>()
