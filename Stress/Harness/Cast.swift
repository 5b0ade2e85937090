import Foundation

/// The worker processes of one scenario: starts them (again after a kill or after they end
/// by themselves), gathers what they report, kills them, and waits for them.
///
/// Counters of processes that ended are kept, so the totals cover every process started.
/// A process that ends other than by a kill of the cast, by itself with status 0 and `DONE`,
/// is a violation.
final class Cast {
    /// One started process.
    final class Member {
        let role: Role
        let slot: Int
        let incarnation: Int
        fileprivate(set) var child: Child!
        fileprivate var counters: [Counter: Int] = [:]
        fileprivate var done = false

        fileprivate init(role: Role, slot: Int, incarnation: Int) {
            self.role = role
            self.slot = slot
            self.incarnation = incarnation
        }

        /// `writer 2`, or `writer 2 (start 3)` after restarts.
        var name: String { "\(role.title) \(slot)" + (incarnation > 1 ? " (start \(incarnation))" : "") }
    }

    private let lock = NSLock()
    private let arguments: (Role, _ slot: Int, _ incarnation: Int) -> [String]
    private var members: [Member] = []
    private var ended: [Counter: Int] = [:]
    private var reportedViolations: [String] = []
    private var latencies = LatencyHistogram()
    private var startCount = 0
    private var killed: [Role: Int] = [:]

    /// A cast whose workers get `arguments(role, slot, incarnation)`.
    init(arguments: @escaping (Role, _ slot: Int, _ incarnation: Int) -> [String]) {
        self.arguments = arguments
        signal(SIGPIPE, SIG_IGN)
    }

    /// Starts `count` workers of `role`, slots 1...count.
    func start(_ role: Role, count: Int) throws {
        for slot in stride(from: 1, through: count, by: 1) { try start(role, slot: slot, incarnation: 1) }
    }

    /// The running members of `roles`.
    func members(_ roles: Set<Role>) -> [Member] {
        lock.withLock { members.filter { roles.contains($0.role) } }
    }

    /// Sends `line` to every member of `roles`.
    func send(_ line: String, to roles: Set<Role>) {
        members(roles).forEach { $0.child.send(line) }
    }

    /// Kills `member` with SIGKILL, waits for it and starts its slot again.
    func killAndRestart(_ member: Member) throws {
        let running = member.child.isRunning
        if running {
            member.child.kill()
            lock.withLock { killed[member.role, default: 0] += 1 }
        }
        retire(member, killed: running, deadline: Date(timeIntervalSinceNow: 30))
        try start(member.role, slot: member.slot, incarnation: member.incarnation + 1)
    }

    /// Starts a new process in the slot of each member of `role` that ended by itself.
    func restartEnded(_ role: Role) throws {
        for member in members([role]) where !member.child.isRunning {
            retire(member, killed: false, deadline: Date(timeIntervalSinceNow: 30))
            try start(role, slot: member.slot, incarnation: member.incarnation + 1)
        }
    }

    /// Waits up to `timeout` seconds for every member of `roles` to end; kills the ones
    /// still running then, which is a violation.
    func waitForEnd(_ roles: Set<Role>, timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        for member in members(roles) { retire(member, killed: false, deadline: deadline) }
    }

    /// Records a violation found by the coordinator.
    func violation(_ text: String) {
        lock.withLock { reportedViolations.append(text) }
    }

    /// Every violation so far, from the workers and the coordinator.
    var violations: [String] { lock.withLock { reportedViolations } }

    /// The counters of every process started, running or ended.
    var totals: [Counter: Int] {
        lock.withLock { members.map(\.counters).reduce(ended) { $0.merging($1, uniquingKeysWith: +) } }
    }

    /// The notification latencies the observers reported.
    var latency: LatencyHistogram { lock.withLock { latencies } }

    /// How many processes were started.
    var started: Int { lock.withLock { startCount } }

    /// How many processes the cast killed, in all and of each role.
    var kills: Int { lock.withLock { killed.values.reduce(0, +) } }
    func kills(of role: Role) -> Int { lock.withLock { killed[role, default: 0] } }

    private func start(_ role: Role, slot: Int, incarnation: Int) throws {
        let member = Member(role: role, slot: slot, incarnation: incarnation)
        member.child = try Child(arguments: arguments(role, slot, incarnation)) { [unowned self, member] line in
            handle(line, from: member)
        }
        lock.withLock {
            members.append(member)
            startCount += 1
        }
    }

    /// Waits for `member` to end (killing it at `deadline`), checks how it ended unless the
    /// cast killed it, and moves its counters to the totals of ended processes.
    private func retire(_ member: Member, killed: Bool, deadline: Date) {
        if !member.child.wait(until: deadline) {
            violation("\(member.name) did not end in time; killed")
            member.child.kill()
            _ = member.child.wait(until: Date(timeIntervalSinceNow: 30))
        } else if !killed && !(member.child.succeeded && lock.withLock({ member.done })) {
            violation("\(member.name) ended with \(member.child.outcome) before finishing")
        }
        lock.withLock {
            members.removeAll { $0 === member }
            ended.merge(member.counters, uniquingKeysWith: +)
        }
    }

    private func handle(_ line: String, from member: Member) {
        guard let report = ReportLine(parsing: line) else { return }
        lock.withLock {
            switch report {
            case .stats(let counters): member.counters = counters
            case .violation(let text): reportedViolations.append("\(member.name): \(text)")
            case .latency(let histogram): latencies.merge(histogram)
            case .done: member.done = true
            }
        }
    }
}
