import Foundation

/// The seeds a property test runs: `fixed` (the set run in CI) unless the environment
/// variable `name` says otherwise: `1234` runs that seed, `1000-1999` a range of seeds, and
/// `random:500` five hundred seeds drawn from the system generator.
func propertySeeds(_ name: String, fixed: [UInt64]) -> [UInt64] {
    guard let text = ProcessInfo.processInfo.environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
        return fixed
    }
    if text.hasPrefix("random:"), let count = Int(text.dropFirst("random:".count)) {
        return (0..<count).map { _ in UInt64.random(in: 0...UInt64(UInt32.max)) }
    }
    let bounds = text.split(separator: "-").compactMap { UInt64($0) }
    if bounds.count == 2, bounds[0] <= bounds[1] { return Array(bounds[0]...bounds[1]) }
    if bounds.count == 1, !text.contains("-") { return bounds }
    preconditionFailure("\(name)=\(text): expected a seed (1234), a range (1000-1999) or random:COUNT")
}

extension RandomNumberGenerator {
    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
}
