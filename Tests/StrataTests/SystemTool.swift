import Foundation

/// Runs the program at `tool` with `arguments` to its end and returns its exit status (for
/// tests that mount file systems or add users).
func runSystemTool(_ tool: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}
