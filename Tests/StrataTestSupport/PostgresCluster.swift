import Foundation

/// A throwaway PostgreSQL 15 cluster for tests: made by initdb in a new temporary directory,
/// listening only on a Unix socket in that directory, stopped and removed by `stop()`.
/// PostgreSQL refuses to run as root, so under root the server runs as the unprivileged
/// system user `strata-pg` (created when missing).
public final class PostgresCluster {
    /// Where the server binaries are (Debian's postgresql-15).
    public static let binaries = URL(fileURLWithPath: "/usr/lib/postgresql/15/bin")
    /// The system user the server runs as when the tests run as root.
    static let serverUser = "strata-pg"

    /// The cluster's directory: the data directory `data`, the log `log` and the socket.
    public let directory: URL
    /// The port, which only names the socket (`.s.PGSQL.<port>`): there is no TCP listener.
    public let port: Int
    /// libpq's connection string for the cluster's `postgres` database.
    public var conninfo: String { "host=\(directory.path) port=\(port) dbname=postgres user=strata" }

    /// Why no cluster can be started here (the binaries are missing), or nil.
    public static var unavailableReason: String? {
        let initdb = binaries.appendingPathComponent("initdb").path
        return FileManager.default.isExecutableFile(atPath: initdb)
            ? nil : "PostgreSQL 15 is not installed (no \(initdb)); Scripts/ensure-deps.sh installs postgresql-15"
    }

    /// Makes and starts a cluster; throws with the tools' output when they fail.
    public init() throws {
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("strata-pg-\(UUID().uuidString.prefix(8))")
        port = Int.random(in: 20_000...60_000)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        if getuid() == 0 {
            try Self.ensureServerUser()
            try Self.run(URL(fileURLWithPath: "/bin/chown"), [Self.serverUser, directory.path], asServer: false)
        }
        try Self.run(Self.binaries.appendingPathComponent("initdb"),
                     ["-D", dataDirectory, "-U", "strata", "-A", "trust", "--no-sync", "-E", "UTF8"])
        try start()
    }

    deinit { stop() }

    private var dataDirectory: String { directory.appendingPathComponent("data").path }
    private var isRunning = false

    /// Starts the server (after `init` or `stopServer()`), waiting until it accepts connections.
    public func start() throws {
        let options = "-k \(directory.path) -p \(port) -c listen_addresses='' -c fsync=off"
        try Self.run(Self.binaries.appendingPathComponent("pg_ctl"),
                     ["-D", dataDirectory, "-l", directory.appendingPathComponent("log").path, "-w", "-o", options, "start"])
        isRunning = true
    }

    /// Stops the server at once (as a crash would), keeping its data for `start()`.
    public func stopServer() throws {
        guard isRunning else { return }
        isRunning = false
        try Self.run(Self.binaries.appendingPathComponent("pg_ctl"), ["-D", dataDirectory, "-m", "immediate", "-w", "stop"])
    }

    /// Stops the server and removes the cluster's directory.
    public func stop() {
        try? stopServer()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Creates the system user `strata-pg` when it does not exist.
    private static func ensureServerUser() throws {
        guard getpwnam(serverUser) == nil else { return }
        try run(URL(fileURLWithPath: "/usr/sbin/useradd"), ["-r", "-M", "-s", "/usr/sbin/nologin", serverUser], asServer: false)
    }

    /// Runs `executable` with `arguments` until it exits, as `strata-pg` under root when
    /// `asServer`; throws with its output unless it exits with status 0. Spawned and reaped
    /// with posix_spawn and waitpid, its output in a file: the server pg_ctl starts keeps the
    /// descriptors it inherits open for as long as it runs.
    private static func run(_ executable: URL, _ arguments: [String], asServer: Bool = true) throws {
        let command = asServer && getuid() == 0 ? ["/usr/sbin/runuser", "-u", serverUser, "--", executable.path] + arguments
                                                : [executable.path] + arguments
        let transcript = "/tmp/strata-pg-run-\(UUID().uuidString)"
        defer { unlink(transcript) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, transcript, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw WorkerError("cannot start \(command[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: transcript, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw WorkerError("\(command.joined(separator: " ")) failed (wait status \(status)):\n\(text)")
        }
    }
}
