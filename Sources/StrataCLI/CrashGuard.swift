import Foundation
import Glibc

/// Runs each command in a child process of this executable, so that no file, however damaged,
/// crashes `strata`: a reader that traps on a damaged value, or faults inside LMDB on a garbled
/// B-tree page that no check can see before LMDB follows it, ends in the child, and `strata`
/// exits 1 saying the file is damaged. Signals sent to `strata` (Ctrl-C, `kill`) go on to the
/// child; a child ended by one of them ends `strata` the same way. (SIGKILL cannot be passed
/// on: a child whose parent was killed so finishes its command alone.)
enum CrashGuard {
    /// Set in the child's environment: the process that does the work.
    private static let childVariable = "STRATA_CLI_WORKER"
    /// The child, for the signal handlers that pass signals on.
    nonisolated(unsafe) private static var child: pid_t = 0
    /// The signals a reader dies of when it meets what it cannot read.
    private static let crashSignals: Set<Int32> = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS]
    /// The signals passed on to the child.
    private static let forwarded: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2]

    /// Whether this process is the child doing the work.
    static var isWorker: Bool { getenv(childVariable) != nil }

    /// Runs this executable again with `arguments` as the child and returns the exit status
    /// `strata` gives: the child's, or 1 with a message on stderr when a crash ended it.
    static func runWorker(_ arguments: [String], command: String) -> Int32 {
        var environment = ProcessInfo.processInfo.environment
        environment[childVariable] = "1"
        let argv = (["strata"] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        for signal in forwarded { _ = Glibc.signal(signal) { kill(CrashGuard.child, $0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/proc/self/exe", nil, nil, argv, envp)
        guard spawned == 0 else {
            Output.error("\(command): cannot start its worker process: \(String(cString: strerror(spawned)))")
            return 1
        }
        child = pid
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        if signal == 0 { return (status >> 8) & 0xFF }
        guard crashSignals.contains(signal) else {
            // Ended from outside (Ctrl-C, kill, a closed pipe): end the same way.
            _ = Glibc.signal(signal, SIG_DFL)
            raise(signal)
            return 128 + signal
        }
        let name = String(cString: strsignal(signal))
        Output.error("\(command): reading stopped with signal \(signal) (\(name)): the file is damaged in a way its reader cannot survive"
                     + "\nhint: keep a copy of the file as it is; 'strata check FILE' reports the damage it can name")
        return 1
    }
}
