import Foundation
import XCTest
import Strata

/// The change-set property test (docs/NOTIFICATIONS.md, "How it is tested"): random write
/// sequences, and for every callback of many observers at once, the indices must lead exactly
/// from the previous snapshot to the new one and the modifications must name exactly the
/// surviving objects whose observed properties were written.
///
/// CI runs `ciSeeds`, `roundsPerSeed` rounds each. `STRATA_CHANGESET_SEEDS=1234` replays one
/// seed, `=1000-1999` runs a range and `=random:500` runs 500 random seeds; each failure
/// names its seed. `STRATA_CHANGESET_ROUNDS=400` makes every seed run longer.
final class ChangeSetPropertyTests: StrataTestCase {
    static let ciSeeds: [UInt64] = Array(1...12)
    static let roundsPerSeed = ProcessInfo.processInfo.environment["STRATA_CHANGESET_ROUNDS"].flatMap { Int($0) } ?? 40

    /// Every seed's trial finds nothing wrong.
    func testEveryCallbackLeadsFromThePreviousSnapshotToTheNewOne() throws {
        for seed in propertySeeds("STRATA_CHANGESET_SEEDS", fixed: Self.ciSeeds) {
            if let problem = run(seed: seed) {
                XCTFail("seed \(seed) (replay: STRATA_CHANGESET_SEEDS=\(seed)):\n\(problem)")
            }
        }
    }

    /// One seed on a file of its own; the first problem found, if any.
    private func run(seed: UInt64) -> String? {
        var configuration = configuration("seed-\(seed).strata", types: [Card.self, Deck.self])
        configuration.syncOnCommit = false
        do {
            return try ChangeSetTrial(configuration: configuration, seed: seed).run(rounds: Self.roundsPerSeed)
        } catch {
            return "\(error)"
        }
    }
}
