import Foundation
import Strata

/// The `growth` scenario: W writers (`BlobWriter`) push the file far past its starting size
/// with large values while R readers (`SnapshotHolder`) hold old snapshots; when the readers
/// release them the file must stop growing as fast, because the pages freed meanwhile can
/// be reused.
///
/// The run alternates pinned phases (the readers hold their snapshots) and released phases
/// (short snapshots only), each `--hold S` long (default half the duration, at most 60 s),
/// starting pinned. Writers write at up to `--mbps M` in all (default 20) blobs of up to
/// `--blob-kb B` KiB (default 1024), each keeping its last `--live N` (default 16).
/// Checks: the held snapshots stay intact; in every released phase the file grows per byte
/// written at most half as much as in the first pinned phase; every commit the writers
/// made is in the file; every blob left is intact; the integrity checker. The map starts at
/// 4 GiB or more (`MapSize`), more than the file reaches in a run, so the file grows inside
/// it; growing the map itself is tested by MapResizeTests.
enum GrowthScenario {
    static func run(_ settings: ScenarioSettings) throws -> Summary {
        let blobKB = settings.options.int("blob-kb", default: 1024)
        let live = settings.options.int("live", default: 16)
        let mbps = settings.options.double("mbps", default: 20)
        let hold = settings.options.double("hold", default: min(settings.duration / 2, 60))
        guard blobKB >= 1, blobKB <= 16 * 1024, live >= 1, mbps > 0, hold > 0, hold < settings.duration else {
            fail("growth needs --blob-kb 1...16384, --live ≥ 1, --mbps > 0 and 0 < --hold < --duration")
        }
        try settings.prepareFiles()
        let base = try Realm(configuration: Growth.configuration(path: settings.path, nosync: settings.nosync)).version
        let cast = Cast { role, slot, incarnation in
            settings.workerArguments(role, slot: slot, incarnation: incarnation) + ["--blob-kb", "\(blobKB)"]
                + (role == .blobWriter ? ["--live", "\(live)", "--mbps", "\(mbps / Double(settings.writers))"] : [])
        }
        emit("growth: \(Summary.count(settings.writers, "writer")) (blobs up to \(blobKB) KiB, \(live) live each, \(mbps) MB/s in all), \(Summary.count(settings.readers, "reader")) holding snapshots in alternate phases of \(hold) s, \(settings.duration) s, seed \(settings.seed), \(StressKey.fileKind) \(settings.path)")
        emit("growth: the map starts at 4 GiB or more, so the file grows inside it")
        var sizes = FileSizes(path: settings.path)
        try cast.start(.blobWriter, count: settings.writers)
        try cast.start(.snapshotHolder, count: settings.readers)

        let clock = ScenarioClock(duration: settings.duration)
        let progress = { "commits reported \(cast.totals[.commits, default: 0]), file \(FileSizes.megabytes(sizes.latest)), violations \(cast.violations.count)" }
        var phases: [GrowthPhase] = []
        var start = (size: sizes.first, written: 0, seconds: 0.0)
        while start.seconds < settings.duration {
            let pinned = phases.count % 2 == 0
            let end = min(start.seconds + hold, settings.duration)
            clock.run(until: end, progress: progress) { sizes.sample() }
            let now = (size: sizes.sample(), written: cast.totals[.bytes, default: 0], seconds: clock.elapsed)
            phases.append(GrowthPhase(pinned: pinned, seconds: now.seconds - start.seconds,
                                      written: now.written - start.written, growth: now.size - start.size))
            cast.send(pinned ? "release" : "hold", to: [.snapshotHolder])
            start = now
        }
        cast.send("stop", to: [.blobWriter, .snapshotHolder])
        cast.waitForEnd([.blobWriter, .snapshotHolder], timeout: 60)

        let realm = try Realm(configuration: Growth.configuration(path: settings.path, nosync: settings.nosync))
        var findings = Growth.checkBlobs(realm, maximum: blobKB * 1024).1
        let commits = Int(realm.version - base), reported = cast.totals[.commits, default: 0]
        findings.expect(reported <= commits, "the writers committed \(reported) transactions, the file has \(commits)")
        let firstRate = phases[0].rate
        for (index, phase) in phases.enumerated() where !phase.pinned {
            findings.expect(phase.written > 0, "nothing was written in phase \(index + 1)")
            findings.expect(phase.rate <= firstRate / 2,
                            "the file kept growing after the readers released, in phase \(index + 1): \(phase.rateText), \(phases[0].rateText) while first pinned")
        }

        let totals = cast.totals
        var summary = Summary(scenario: "growth")
        summary.processes = cast.started
        summary.cast = "\(Summary.count(settings.writers, "writer")), \(Summary.count(settings.readers, "reader"))"
        summary.duration = clock.elapsed
        summary.commits = commits
        summary.snapshots = totals[.snapshots, default: 0]
        summary.checks = totals[.checks, default: 0] + findings.checks
        summary.lostCommits = max(0, reported - commits)
        summary.integrity = Integrity.check(settings.path)
        summary.violations = cast.violations + findings.failures
        summary.notes = ["file: \(FileSizes.megabytes(sizes.first)) at the start, \(FileSizes.megabytes(sizes.largest)) at most, \(FileSizes.megabytes(sizes.latest)) at the end"]
            + (phases.count > 2 ? ["first pinned phase: " + phases[0].description] : [])
            + [true, false].map { pinned in
                let group = phases.filter { $0.pinned == pinned }
                return "\(pinned ? "pinned" : "released") phases (\(group.count)): " + GrowthPhase.combined(group).description
            }
        return summary
    }
}

/// One phase of the `growth` scenario: whether the readers held their snapshots, how long
/// it lasted, what the writers wrote and how much the file grew.
struct GrowthPhase {
    let pinned: Bool
    let seconds: Double
    let written: Int
    let growth: Int

    /// File growth per byte written.
    var rate: Double { Double(growth) / Double(max(written, 1)) }

    /// `0.98 MB per MB written`.
    var rateText: String { String(format: "%.2f MB per MB written", rate) }

    /// `10.0 s, 193.2 MB written, file +209.9 MB (1.09 MB per MB written)`.
    var description: String {
        String(format: "%.1f s, ", seconds) + "\(FileSizes.megabytes(written)) written, file +\(FileSizes.megabytes(growth)) (\(rateText))"
    }

    /// The phases added together.
    static func combined(_ phases: [GrowthPhase]) -> GrowthPhase {
        GrowthPhase(pinned: phases.first?.pinned ?? true, seconds: phases.map(\.seconds).reduce(0, +),
                    written: phases.map(\.written).reduce(0, +), growth: phases.map(\.growth).reduce(0, +))
    }
}

/// The file's size over a run, sampled by the coordinator.
struct FileSizes {
    let path: String
    /// The size when sampling began, the last sample, and the largest.
    private(set) var first = 0, latest = 0, largest = 0

    init(path: String) {
        self.path = path
        first = sample()
    }

    /// Reads the size now and returns it.
    @discardableResult
    mutating func sample() -> Int {
        latest = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? latest
        largest = max(largest, latest)
        return latest
    }

    /// `412.3 MB`.
    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
}
