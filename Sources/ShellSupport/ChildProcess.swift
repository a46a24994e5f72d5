import Glibc

/// A child process started with posix_spawn and stopped by its PID.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    public let executable: String

    /// Starts `executable` with `arguments`; stdout and stderr go to `logPath`.
    public init(executable: String, arguments: [String], logPath: String) throws(ProcessStartError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        Self.closeInheritedDescriptors(&actions)
        // The daemon blocks SIGTERM/SIGINT/SIGHUP for sigwait; the child must not
        // inherit that mask, or it could not be stopped.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        // Its own process group: a terminal's Ctrl-C reaches only the parent,
        // which stops its children in order (a broker killed first makes its
        // clients log disconnections).
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw .cannotStart(executable, String(cString: strerror(result))) }
        pid = child
        self.executable = executable
    }

    /// The child gets stdin, stdout and stderr only: the parent's sockets (a
    /// broker connection, a listening port) must not stay open in it, where they
    /// would outlive the parent's own close (a peer left in CLOSE_WAIT, a port
    /// still bound). glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+),
    /// looked up at run time because the Glibc module does not export it.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        _ = closeFrom(&actions, 3)
    }

    /// Whether the child has exited (reaps it if so).
    public var hasExited: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid
    }

    /// Sends `signal` (SIGHUP, ...) to the child.
    public func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// SIGKILL at once (no chance to clean up), then reaps it.
    public func killNow() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// SIGTERM, then SIGKILL if it has not exited within `graceMs`; reaps it.
    public func stop(graceMs: Int = 3_000) {
        kill(pid, SIGTERM)
        let deadline = MonotonicClock.nowMs() + Int64(graceMs)
        var status: Int32 = 0
        while MonotonicClock.nowMs() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }

    /// The first executable named `name` in the usual places and `$PATH`.
    public static func find(_ name: String, extraDirectories: [String] = ["/usr/sbin", "/usr/local/sbin", "/sbin"]) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + extraDirectories
        return directories.map { $0 + "/" + name }.first { access($0, X_OK) == 0 }
    }
}

/// Why the demo could not start.
/// Why a helper process could not start.
public enum ProcessStartError: Error, CustomStringConvertible {
    case cannotStart(String, String)
    case missingProgram(String, install: String)
    case notReady(String)
    case config(String)

    public var description: String {
        switch self {
        case .cannotStart(let program, let reason): return "cannot start \(program): \(reason)"
        case .missingProgram(let program, let install): return "\(program) is not installed; install it with:\n    \(install)"
        case .notReady(let what): return "\(what) did not become ready in time"
        case .config(let report): return report
        }
    }
}
