import StrataStorage

/// Semi-joins: a query that tests the members of many lists against a condition on the
/// members' own rows (`ANY members.age > 90`, `SUBQUERY(members, $m, …).@count`) reads each
/// member's row at random, one B-tree lookup per member. When its members add up to a good
/// part of their class, one pass over the class (or an index of it) that finds the objects
/// for which the condition holds costs less, and each member is then looked up among those
/// keys instead of read.
enum SemiJoin {
    /// Members are read one by one.
    case rowByRow
    /// The keys, in key order, of the objects for which the condition holds.
    case keys([ObjectKey])

    /// A semi-join is chosen when the members a query is expected to visit, times this, reach
    /// the number of objects of their class: a member read at random costs about as much as
    /// this many objects of a pass over the class.
    static let randomReadCost = 16
}

extension LinkReader {
    /// The keys, in key order, of the objects of class number `table` for which `condition`
    /// holds, for semi-join number `join`, when the query is expected to visit enough members
    /// (`members`, those of the first list it reads, times the objects it tests) to make a
    /// pass over the class cheaper than reading them; nil when members are read one by one.
    /// Decided once per execution, at the first list.
    func matchingKeys(_ join: Int, of table: Int, where condition: ResolvedPredicate, members: Int) -> [ObjectKey]? {
        if let decided = semiJoins[join] {
            if case .keys(let keys) = decided { return keys }
            return nil
        }
        var decided = SemiJoin.rowByRow
        do {
            if testedCount > 0, members.multipliedReportingOverflow(by: testedCount * SemiJoin.randomReadCost).partialValue >= (try source.count(table)) {
                decided = .keys(try source.matches(condition, of: table))
            }
        } catch {
            note(error)  // thrown after the run
            decided = .keys([])
        }
        semiJoins[join] = decided
        if case .keys(let keys) = decided { return keys }
        return nil
    }
}

extension Evaluator {
    /// The test of a condition over the members of one list of objects whose condition reads
    /// only the members' rows: calls `body` with whether it holds for each member in list
    /// order until `body` returns false, and returns false when `body` stopped it. A member
    /// whose object is missing holds no condition (read one by one, it is skipped; looked
    /// up, it is not among the keys): the same for `ANY` and a count. Nil for any other path
    /// or condition.
    static func compileMemberTest(_ steps: [CompiledStep], _ condition: ResolvedPredicate, _ classes: inout ClassNumbers)
        -> (@Sendable (ObjectKey, LinkReader, (Bool) -> Bool) -> Bool)? {
        guard steps.count == 1, case .list(let owner, let property) = steps[0].kind, property.type == .link,
              !condition.followsLinks else { return nil }
        let test = compile(condition), target = steps[0].target, join = classes.semiJoin()
        return { key, reader, body in
            let members = reader.listValues(owner, property, key)
            if let matching = reader.matchingKeys(join, of: target, where: condition, members: members.count) {
                for case .link(let member) in members where !body(matching.containsSorted(member)) { return false }
                return true
            }
            for case .link(let member) in members {
                guard let row = reader.row(target, member) else { continue }
                if !body(test(row)) { return false }
            }
            return true
        }
    }
}

extension Array where Element == ObjectKey {
    /// Whether the array, in ascending order, holds `key` (a binary search).
    func containsSorted(_ key: ObjectKey) -> Bool {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == key
    }
}
