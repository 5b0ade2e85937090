import Foundation
import Strata

/// What `log`, `show` and `diff` share: the file opened read-only on its newest snapshot,
/// held only while they read, and the texts of versions and times.
enum HistoryFile {
    /// Opens `path` read-only, runs `body` on its newest snapshot and releases the snapshot.
    static func reading<T>(_ path: String, _ body: (Realm) throws -> T) throws -> T {
        let url = URL(fileURLWithPath: path)
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url, encryptionKey: try KeySource.keyData(), readOnly: true, objectTypes: []))
        defer { realm.invalidate() }
        return try body(realm)
    }

    /// The failure for `versions` that are not retained (exit status 1), naming the retained
    /// range.
    static func notRetained(_ versions: [UInt64], in realm: Realm, path: String) -> CommandFailure {
        let retained = realm.retainedHistory.map { "\($0.lowerBound) to \($0.upperBound)" } ?? "none"
        let which = versions.map(String.init).joined(separator: " and ")
        return CommandFailure("version \(which) is not in the retained history of '\(path)' (retained: \(retained))",
                              hint: "'strata log \(path)' lists the retained versions")
    }

    /// ISO-8601 in UTC, to the second.
    static func time(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    /// ISO-8601 in UTC with the fraction of a second, exact (`ISOTime`, the date format of
    /// every JSON the commands write); a date ISO 8601 cannot hold as seconds since
    /// 2001-01-01.
    static func preciseTime(_ date: Date) -> String {
        ISOTime.text(date) ?? "\(date.timeIntervalSinceReferenceDate)"
    }
}
