import Foundation

/// The scenarios `strata-stress` runs, each as real processes against one file, and `all`,
/// which runs every one in turn with the same flags.
enum Scenarios {
    /// The scenario names, in the order `all` runs them.
    static let names = ["bank", "kill", "churn", "growth"]

    /// `strata-stress NAME [flags]`: runs one scenario, prints its table, and exits with
    /// status 1 unless it passed.
    static func runOne(_ name: String, _ options: Arguments) throws -> Never {
        let summary = try run(name, options, sharedFile: false)
        exit(summary.passed ? 0 : 1)
    }

    /// `strata-stress all [flags]`: runs every scenario (each on its own file), prints each
    /// table and then one line per scenario; exits with status 1 unless all passed.
    static func runAll(_ options: Arguments) throws -> Never {
        let summaries = try names.map { try run($0, options, sharedFile: true) }
        Summary.printCombined(summaries)
        exit(summaries.allSatisfy(\.passed) ? 0 : 1)
    }

    /// Runs scenario `name`, prints its table and verdict, and removes its temporary file if
    /// it passed.
    private static func run(_ name: String, _ options: Arguments, sharedFile: Bool) throws -> Summary {
        let settings: ScenarioSettings
        let summary: Summary
        switch name {
        case "bank":
            settings = ScenarioSettings(name, options, writers: 2, readers: 2, observers: 2, fileSuffix: sharedFile)
            summary = try BankScenario.run(.bank, settings)
        case "kill":
            settings = ScenarioSettings(name, options, writers: 3, readers: 2, observers: 1, fileSuffix: sharedFile)
            summary = try BankScenario.run(.kill, settings)
        case "churn":
            settings = ScenarioSettings(name, options, writers: 2, readers: 1, observers: 1, fileSuffix: sharedFile)
            summary = try BankScenario.run(.churn, settings)
        case "growth":
            settings = ScenarioSettings(name, options, writers: 2, readers: 2, observers: 0, fileSuffix: sharedFile)
            summary = try GrowthScenario.run(settings)
        default:
            fail("unknown scenario '\(name)'")
        }
        summary.print()
        emit(summary.passed ? "\(name): all invariants hold" : "\(name): FAILED")
        settings.cleanUp(passed: summary.passed)
        return summary
    }
}
