import Foundation

/// The indices of one `.update`, in RealmSwift's meaning: deletions and modifications are
/// indices in the previous version of the collection, insertions indices in the new one.
struct ReportedChange: Equatable, CustomStringConvertible {
    var deletions: [Int]
    var insertions: [Int]
    var modifications: [Int]

    var description: String { "deletions \(deletions), insertions \(insertions), modifications \(modifications)" }
}

/// Checks a reported change against the collection before and after it.
enum ChangeSetCheck {
    /// What is wrong with `change` as the way from `old` to `new` (element identities, in
    /// order), given the identities whose observed properties were written: each index list
    /// must be ascending and in range; removing the deletions (in descending order) from
    /// `old` and then inserting `new`'s elements at the insertions must give `new`; the
    /// modifications must be exactly the surviving old positions whose element was written;
    /// and, when neither array repeats an element, the survivors must be as many as the
    /// longest common subsequence (Strata keeps the longest run of objects that did not move).
    static func problems(old: [Int], new: [Int], change: ReportedChange, written: Set<Int>) -> [String] {
        var problems: [String] = []
        for (name, indices, count) in [("deletions", change.deletions, old.count), ("insertions", change.insertions, new.count),
                                       ("modifications", change.modifications, old.count)] {
            if !zip(indices, indices.dropFirst()).allSatisfy({ $0 < $1 }) { problems.append("\(name) are not strictly ascending") }
            if !indices.allSatisfy({ (0..<count).contains($0) }) { problems.append("\(name) are out of range 0..<\(count)") }
        }
        guard problems.isEmpty else { return problems }
        let applied = apply(change, to: old, new: new)
        if applied != new { problems.append("applying the deletions and insertions gives \(applied.map { "\($0)" } ?? "no array (an insertion past the end)")") }
        let deleted = Set(change.deletions)
        let expected = old.indices.filter { !deleted.contains($0) && written.contains(old[$0]) }
        if change.modifications != expected { problems.append("modifications should be \(expected)") }
        if Set(old).count == old.count, Set(new).count == new.count {
            let kept = old.count - change.deletions.count, longest = longestCommonSubsequence(old, new)
            if kept != longest { problems.append("\(kept) elements kept their place, but \(longest) could have") }
        }
        return problems
    }

    /// Whether a collection that went from `old` to `new` must be reported: it changed, or an
    /// element in both had an observed property written.
    static func mustReport(old: [Int], new: [Int], written: Set<Int>) -> Bool {
        old != new || old.contains(where: written.contains)
    }

    /// `old` without the deletions (removed from the highest index down), then with
    /// `new[i]` inserted at each insertion `i` (ascending); nil if an index does not fit.
    static func apply(_ change: ReportedChange, to old: [Int], new: [Int]) -> [Int]? {
        var result = old
        for index in change.deletions.reversed() { result.remove(at: index) }
        for index in change.insertions {
            guard index <= result.count else { return nil }
            result.insert(new[index], at: index)
        }
        return result
    }

    /// The length of a longest common subsequence of `a` and `b`.
    static func longestCommonSubsequence(_ a: [Int], _ b: [Int]) -> Int {
        var previous = [Int](repeating: 0, count: b.count + 1)
        for x in a {
            var row = [0]
            for (j, y) in b.enumerated() { row.append(x == y ? previous[j] + 1 : max(previous[j + 1], row[j])) }
            previous = row
        }
        return previous[b.count]
    }
}
