import Foundation

/// The workers of one measurement, run together: all are started, all get ready (open the
/// database, register observers), then all get the same window, and each one's result is
/// collected. If one fails, the others are stopped.
enum WorkerGroup {
    static func run(_ argumentLists: [[String]], seconds: Double) throws -> [WorkerResult] {
        var workers: [WorkerProcess] = []
        do {
            for arguments in argumentLists { workers.append(try WorkerProcess(arguments: arguments)) }
            for worker in workers { try worker.awaitReady() }
            let window = MeasurementWindow.starting(lasting: seconds)
            for worker in workers { try worker.start(window) }
            return try workers.map { try $0.result() }
        } catch {
            for worker in workers { worker.stop() }
            throw error
        }
    }
}
