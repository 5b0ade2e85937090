/// Naming a class or property the file does not have: the failure says which it has, or the
/// closest name when one is near.
enum ClassNames {
    /// "unknown class 'Dgo' in 'FILE'; did you mean 'Dog'?" (or the list of classes), with
    /// exit status 2.
    static func unknown(_ name: String, in classes: [String], file: String) -> CommandFailure {
        var text = "unknown class '\(name)' in '\(file)'"
        let sorted = classes.sorted()
        if let best = closest(to: name, in: sorted) {
            text += "; did you mean '\(best)'?"
        } else {
            text += sorted.isEmpty ? "; the file has no classes" : "; its classes: " + sorted.joined(separator: ", ")
        }
        return CommandFailure(text, hint: "'strata info \(file)' lists the classes and their properties", status: 2)
    }

    /// The name of `names` nearest to `name` (ignoring case), when it is near enough to be
    /// the one meant.
    static func closest(to name: String, in names: [String]) -> String? {
        let lower = name.lowercased()
        guard let best = names.min(by: { editDistance($0.lowercased(), lower) < editDistance($1.lowercased(), lower) }),
              editDistance(best.lowercased(), lower) <= max(2, name.count / 3) else { return nil }
        return best
    }

    /// The edit distance of `a` and `b`, a swap of two neighbours counting as one edit.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
