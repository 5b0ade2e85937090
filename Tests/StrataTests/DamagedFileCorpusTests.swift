import Foundation
import StrataStorage
import StrataTestSupport
import XCTest
@testable import Strata

/// The damaged-file corpus: a file with every value type, lists, a set, a map, links and
/// history, written through the public API, then a few hundred copies of it damaged
/// (`FileDamage`, from a fixed seed). Each copy is read whole in a child process
/// (`DamagedFileReader`), so that a crash is seen, not suffered, and checked with
/// `strata check`. No copy may crash the reader except by a trap that says the file is
/// damaged (a fault inside LMDB is an error, `CStrataFaultGuard`), none may read back
/// different data without an error, and `strata check` (whose worker must not die either)
/// must flag every copy that does not read back as the original. The same copies are also
/// changed by one write each (`RelicFile.change`): each must then read as the original so
/// changed, or fail as clearly.
final class DamagedFileCorpusTests: StrataTestCase {
    /// What reading one copy gave.
    enum Outcome: Equatable {
        /// Every object, as in the original.
        case same
        /// Data that differs from the original, with no error: the failure this guards against.
        case different
        /// An error, thrown at open or while reading.
        case refused(String)
        /// The reader trapped saying the file is damaged (a property read on a damaged row).
        case trappedOnDamage(String)
        /// The reader died of a signal inside LMDB (a fault or LMDB's own assertion), with no
        /// Swift trap: a page read the fault guard did not end with an error.
        case crashedInLMDB(String)
        /// The reader died some other way.
        case crashed(String)
    }

    /// Copies read by one child before the next takes over (each open file maps address
    /// space until its Realm goes).
    private static let copiesPerChild = 40

    static func copyName(_ i: Int) -> String { "copy-\(i).strata" }

    /// The damage's seed: 0x5EED_2026, or the hexadecimal number in `STRATA_CORPUS_SEED`
    /// (to run other corpora by hand).
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["STRATA_CORPUS_SEED"].flatMap { UInt64($0, radix: 16) } ?? 0x5EED_2026
    }

    /// FNV-1a of the lines, as 16 hex digits: what the reader reports instead of its lines.
    static func digest(_ lines: [String]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in lines.joined(separator: "\n").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return String(format: "%016llx", hash)
    }

    func testEveryDamagedCopyReadsAsTheOriginalOrFailsClearlyAndCheckFlagsIt() throws {
        let (damages, copies, expected) = try makeCopies(changed: false)
        let outcomes = try read(copies, count: damages.count, expected: expected, changing: false)
        try tally(outcomes, damages) { i, damage, outcome, failures in
            let check = try strata(["check", copies.appendingPathComponent(Self.copyName(i)).path])
            let flagged = check.process.terminationStatus == 1
            if check.process.terminationReason != .exit {
                failures.append("copy \(i) (\(damage.kind)): strata check crashed: \(check.transcript)")
            }
            if outcome != .same && !flagged {
                failures.append("copy \(i) (\(damage.kind)): reads as \(outcome) but strata check says: \(check.transcript)")
            }
            if check.errorOutput.contains("reading stopped with signal") {
                failures.append("copy \(i) (\(damage.kind)): strata check's worker crashed: \(check.transcript)")
            }
            return flagged ? "check flagged" : "check passed"
        }
    }

    func testEveryDamagedCopyChangedByAWriteReadsAsTheOriginalChangedOrFailsClearly() throws {
        let (damages, copies, expected) = try makeCopies(changed: true)
        try tally(try read(copies, count: damages.count, expected: expected, changing: true), damages) { _, _, _, _ in nil }
    }

    /// Counts each copy's outcome by kind of damage, and what `checking` says of it (its own
    /// label, and failures it notes), prints the counts, and fails on every failure noted.
    private func tally(_ outcomes: [Outcome], _ damages: [FileDamage],
                       checking: (Int, FileDamage, Outcome, inout [String]) throws -> String?) throws {
        var summary: [String: [String: Int]] = [:]
        var failures: [String] = []
        for (i, damage) in damages.enumerated() {
            summary[damage.kind, default: [:]][label(outcomes[i], i, damage, &failures), default: 0] += 1
            if let extra = try checking(i, damage, outcomes[i], &failures) { summary[damage.kind, default: [:]][extra, default: 0] += 1 }
        }
        for (kind, counts) in summary.sorted(by: { $0.key < $1.key }) {
            print("corpus: \(kind): " + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    /// Fills the original, damages copies of it, and returns the damages, the copies'
    /// directory, and the digest the original reads as (after `RelicFile.change`, when
    /// `changed`, made on a copy of it).
    private func makeCopies(changed: Bool) throws -> (damages: [FileDamage], copies: URL, expected: String) {
        checksIntegrityAfterTest = false
        let original = fileURL("original.strata")
        try closingRealms {
            let realm = try openRealm("original.strata", types: relicTypes)
            try RelicFile.fill(realm, count: 240, seed: 20)
        }
        let file = try Data(contentsOf: original)
        let lock = try Data(contentsOf: URL(fileURLWithPath: original.path + ".lock"))
        try file.write(to: fileURL("expected.strata"))
        let expected = try closingRealmsReturning {
            let realm = try openRealm("expected.strata", types: relicTypes)
            if changed { try RelicFile.change(realm) }
            return Self.digest(RelicFile.dump(realm))
        }
        var random = SplitMix64(seed: Self.seed)
        let damages = FileDamage.corpus(for: file, &random)
        let copies = directory.appendingPathComponent("copies")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        for (i, damage) in damages.enumerated() {
            var bytes = file
            damage.apply(&bytes)
            let url = copies.appendingPathComponent(Self.copyName(i))
            try bytes.write(to: url)
            try lock.write(to: URL(fileURLWithPath: url.path + ".lock"))
        }
        return (damages, copies, expected)
    }

    /// How `outcome` of copy `i` is counted, noting it in `failures` when it is one.
    private func label(_ outcome: Outcome, _ i: Int, _ damage: FileDamage, _ failures: inout [String]) -> String {
        switch outcome {
        case .same: return "read as the original"
        case .different: failures.append("copy \(i) (\(damage.kind)): read different data without an error"); return "WRONG DATA"
        case .refused: return "refused with an error"
        case .trappedOnDamage: return "trapped saying it is damaged"
        case .crashedInLMDB(let how): failures.append("copy \(i) (\(damage.kind)): the reader crashed inside LMDB: \(how)"); return "CRASHED INSIDE LMDB"
        case .crashed(let how): failures.append("copy \(i) (\(damage.kind)): the reader crashed: \(how)"); return "CRASHED"
        }
    }

    /// Reads copies 0..<count in child processes (changing each first when `changing`), a
    /// new child after each crash and every `copiesPerChild` copies, and tells each outcome.
    private func read(_ copies: URL, count: Int, expected: String, changing: Bool) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        while outcomes.count < count {
            let first = outcomes.count, end = min(count, first + Self.copiesPerChild)
            setenv(DamagedFileReader.variable, "\(copies.path) \(first) \(end)" + (changing ? " change" : ""), 1)
            let child = try WorkerProcess(executable, ["StrataTests.DamagedFileReader/testReadTheCopies"])
            unsetenv(DamagedFileReader.variable)
            try child.waitForExit()
            for line in child.lines {
                let words = line.split(separator: " ", maxSplits: 2).map(String.init)
                guard words.count >= 2, let i = Int(words[1]), i == outcomes.count else { continue }
                switch words[0] {
                case "READ": outcomes.append(words.count == 3 && words[2] == expected ? .same : .different)
                case "ERROR": outcomes.append(.refused(words.count == 3 ? words[2] : ""))
                default: continue
                }
            }
            if child.process.terminationReason == .uncaughtSignal, outcomes.count < end {
                // The copy begun last ended the child.
                let fatal = child.errorOutput.split(separator: "\n").last { $0.contains("Fatal error") }.map(String.init)
                let signal = child.process.terminationStatus
                if let fatal {
                    outcomes.append(fatal.contains("is damaged") ? .trappedOnDamage(fatal) : .crashed(fatal))
                } else {
                    outcomes.append([SIGSEGV, SIGBUS, SIGABRT].contains(signal) && (child.errorOutput.contains("liblmdb") || child.errorOutput.contains("mdb_"))
                                    ? .crashedInLMDB("signal \(signal)") : .crashed("signal \(signal): \(child.errorOutput.suffix(2000))"))
                }
            } else if outcomes.count < end {
                throw WorkerError("the reader of copies \(first)..<\(end) stopped at \(outcomes.count): \(child.transcript)")
            }
        }
        return outcomes
    }

    /// Runs `body`; the Realms it opens are closed when it returns.
    private func closingRealmsReturning<T>(_ body: () throws -> T) rethrows -> T { try body() }
}
