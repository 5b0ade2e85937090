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
    /// The keys of the objects for which the condition holds.
    case keys(KeySet)

    /// A semi-join is chosen when the members a query is expected to visit, times this, reach
    /// the number of objects of their class: a member read at random costs about as much as
    /// this many objects of a pass over the class.
    static let randomReadCost = 16
}

extension LinkReader {
    /// The keys of the objects of class number `table` for which `condition` holds, for
    /// semi-join number `join`, when the query is expected to visit enough members
    /// (`members`, those of the first list it reads, times the objects it tests) to make a
    /// pass over the class cheaper than reading them; nil when members are read one by one.
    /// Decided once per execution, at the first list.
    func matchingKeys(_ join: Int, of table: Int, where condition: ResolvedPredicate, members: Int) -> KeySet? {
        if let decided = semiJoins[join] {
            if case .keys(let keys) = decided { return keys }
            return nil
        }
        var decided = SemiJoin.rowByRow
        do {
            if testedCount > 0, members.multipliedReportingOverflow(by: testedCount * SemiJoin.randomReadCost).partialValue >= (try source.count(table)) {
                decided = .keys(KeySet(ascending: try source.matches(condition, of: table)))
            }
        } catch {
            note(error)  // thrown after the run
            decided = .keys(KeySet(ascending: []))
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
                for case .link(let member) in members where !body(matching.contains(member)) { return false }
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

/// Object keys to test membership in: a bit per key of their span when they are dense in it
/// (one load per test), or else the keys in order (a binary search). Either way at most 8
/// bytes per key.
struct KeySet: Sendable {
    private let first: ObjectKey
    /// A bit per key from `first` on, when the keys are dense; empty otherwise.
    private let bits: [UInt64]
    /// The keys in ascending order, when they are not dense; empty otherwise.
    private let sorted: [ObjectKey]

    /// The set of `keys`, given in ascending order.
    init(ascending keys: [ObjectKey]) {
        let first = keys.first ?? 0
        self.first = first
        let words = keys.last.map { ($0 - first) / 64 + 1 } ?? 0
        guard words > 0, words <= UInt64(keys.count) else {
            (bits, sorted) = ([], keys)
            return
        }
        var bits = [UInt64](repeating: 0, count: Int(words))
        for key in keys {
            let offset = key - first
            bits[Int(offset / 64)] |= 1 << (offset % 64)
        }
        (self.bits, sorted) = (bits, [])
    }

    func contains(_ key: ObjectKey) -> Bool {
        guard !bits.isEmpty else { return containsSorted(key) }
        guard key >= first else { return false }
        let offset = key - first, word = offset / 64
        return word < UInt64(bits.count) && bits[Int(word)] & (1 << (offset % 64)) != 0
    }

    /// Whether `sorted` holds `key`.
    private func containsSorted(_ key: ObjectKey) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == key
    }
}
