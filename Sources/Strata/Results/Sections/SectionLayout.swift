import Foundation

/// How sectioned results group their results: the section keys in order of first appearance,
/// and each section's positions in the results (in result order). Made once per evaluation.
struct SectionLayout<Key: Hashable> {
    /// The keys, one per section, in section order.
    private(set) var keys: [Key] = []
    /// The results' positions in each section, ascending.
    private(set) var rows: [[Int]] = []
    /// The section of each key.
    private(set) var sectionOfKey: [Key: Int] = [:]
    /// The section and item of each result position.
    private(set) var places: [(section: Int, item: Int)] = []

    /// Groups `keys`, the section key of each result position in order.
    init<S: Sequence>(keys: S) where S.Element == Key {
        for key in keys {
            let section: Int
            if let known = sectionOfKey[key] {
                section = known
            } else {
                section = self.keys.count
                sectionOfKey[key] = section
                self.keys.append(key)
                rows.append([])
            }
            places.append((section, rows[section].count))
            rows[section].append(places.count - 1)
        }
    }

    /// The number of result positions.
    var count: Int { places.count }
}

/// What changed between two layouts of the same sectioned results, from the change of the
/// results under them: the form `RealmSectionedResultsChange.update` reports.
struct SectionChanges {
    var deletions: [IndexPath] = []
    var insertions: [IndexPath] = []
    var modifications: [IndexPath] = []
    var sectionsToInsert = IndexSet()
    var sectionsToDelete = IndexSet()

    var isEmpty: Bool {
        deletions.isEmpty && insertions.isEmpty && modifications.isEmpty && sectionsToInsert.isEmpty && sectionsToDelete.isEmpty
    }

    /// The changes from `old` to `new`, given the results' own change (`deletions` and
    /// `modifications` positions in the old results, `insertions` in the new), only of the
    /// section of `key` when one is given. Sections are deleted and inserted by key (a
    /// deleted section's rows are not listed again); a row is deleted from its old place and
    /// inserted at its new one when its object went or came, changed section, or was modified
    /// and moved within its section; a modified row that kept its place is a modification
    /// (at its new index path). Rows that only shifted are not reported.
    init<Key: Hashable>(from old: SectionLayout<Key>, to new: SectionLayout<Key>,
                        deletions: [Int], insertions: [Int], modifications: [Int], onlyKey key: Key? = nil) {
        let deleted = Set(deletions), inserted = Set(insertions), modified = Set(modifications)
        // The survivors keep their relative order: pair old and new positions in order.
        var newOfOld = [Int?](repeating: nil, count: old.count)
        var oldOfNew = [Int?](repeating: nil, count: new.count)
        var j = 0
        for i in 0..<old.count where !deleted.contains(i) {
            while inserted.contains(j) { j += 1 }
            guard j < new.count else { break }
            newOfOld[i] = j
            oldOfNew[j] = i
            j += 1
        }
        func concerns(_ k: Key) -> Bool { key == nil || key == k }
        /// Whether the object at old position `i` and new position `j` keeps its row.
        func staysInPlace(_ i: Int, _ j: Int) -> Bool {
            let (s, item) = old.places[i], (t, newItem) = new.places[j]
            return old.keys[s] == new.keys[t] && (!modified.contains(i) || item == newItem)
        }
        for (s, k) in old.keys.enumerated() where concerns(k) && new.sectionOfKey[k] == nil { sectionsToDelete.insert(s) }
        for (t, k) in new.keys.enumerated() where concerns(k) && old.sectionOfKey[k] == nil { sectionsToInsert.insert(t) }
        for i in 0..<old.count {
            let (s, item) = old.places[i]
            guard concerns(old.keys[s]), new.sectionOfKey[old.keys[s]] != nil else { continue }
            if let j = newOfOld[i], staysInPlace(i, j) { continue }
            self.deletions.append(IndexPath(item: item, section: s))
        }
        for j in 0..<new.count {
            let (t, item) = new.places[j]
            guard concerns(new.keys[t]) else { continue }
            if let i = oldOfNew[j], staysInPlace(i, j) {
                if modified.contains(i) { self.modifications.append(IndexPath(item: item, section: t)) }
                continue
            }
            self.insertions.append(IndexPath(item: item, section: t))
        }
        self.deletions.sort()
        self.insertions.sort()
        self.modifications.sort()
    }
}
