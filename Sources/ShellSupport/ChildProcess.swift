import Glibc

/// A child process started by `ProcessSpawner` (in a process group of its
/// own) and stopped by its PID.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    public let executable: String

    /// Starts `executable` with `arguments`; stdout and stderr go to `logPath`.
    public init(executable: String, arguments: [String], logPath: String) throws(ProcessStartError) {
        pid = try ProcessSpawner.spawn(executable: executable, arguments: arguments, stdout: .file(logPath), ownProcessGroup: true)
        self.executable = executable
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
