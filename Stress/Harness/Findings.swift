/// The outcome of checking invariants: how many checks ran, and the ones that failed.
struct Findings {
    private(set) var checks = 0
    private(set) var failures: [String] = []

    /// Counts one check, recording `message` when `holds` is false.
    mutating func expect(_ holds: Bool, _ message: @autoclosure () -> String) {
        checks += 1
        if !holds { failures.append(message()) }
    }

    /// Adds the checks and failures of `other`.
    mutating func merge(_ other: Findings) {
        checks += other.checks
        failures += other.failures
    }
}
