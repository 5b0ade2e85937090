import Foundation

/// The versions this process's read snapshots pin in one file: how many snapshots hold each
/// version, since when, and through which LMDB transaction. The oldest pin is published in
/// the coordination file's registry, where `strata versions` shows it; the number of distinct
/// versions is what `maximumNumberOfActiveVersions` bounds.
final class VersionPins {
    private struct Pin {
        var snapshots: Int
        let transaction: Int
        let since: Date
    }
    private var pins: [UInt64: Pin] = [:]
    private var snapshots = 0

    /// The distinct versions pinned.
    var distinctVersions: Int { pins.count }

    /// Adds a snapshot of `version`, read through LMDB transaction `transaction`.
    func pin(_ version: UInt64, transaction: Int) {
        pins[version, default: Pin(snapshots: 0, transaction: transaction, since: Date())].snapshots += 1
        snapshots += 1
    }

    /// Removes a snapshot of `version`.
    func unpin(_ version: UInt64) {
        guard var pin = pins[version] else { return }
        pin.snapshots -= 1
        pins[version] = pin.snapshots == 0 ? nil : pin
        snapshots -= 1
    }

    /// What the registry shows for this process.
    var published: (oldest: (version: UInt64, transaction: Int, since: Date)?, snapshots: Int) {
        let oldest = pins.min { $0.key < $1.key }
        return (oldest.map { ($0.key, $0.value.transaction, $0.value.since) }, snapshots)
    }

    /// One line per pinned version, oldest first, for error messages.
    var description: String {
        let formatter = ISO8601DateFormatter()
        return pins.sorted { $0.key < $1.key }
            .map { "version \($0.key): \($0.value.snapshots) snapshot(s) since \(formatter.string(from: $0.value.since))" }
            .joined(separator: "; ")
    }
}
