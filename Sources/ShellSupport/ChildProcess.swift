import Glibc

/// A child process started by `ProcessSpawner`, stopped and reaped by its PID:
/// the one wrapper of a child (the demo's broker, the bench's bridge, every
/// test's child). Its wait status is kept once reaped, so its exit code can be
/// read after any check that found it gone.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    public let executable: String
    /// Where its stdout goes.
    public let stdoutPath: String
    /// Where its stderr goes (the same file as stdout when started with one log).
    public let stderrPath: String
    /// The wait status once reaped.
    private let reapedStatus = ConditionLock<Int32?>(nil)

    /// Starts `executable` with `arguments` in a process group of its own;
    /// stdout and stderr go to `logPath`.
    public convenience init(executable: String, arguments: [String], logPath: String) throws(ProcessStartError) {
        try self.init(executable: executable, arguments: arguments, stdoutPath: logPath, stderrPath: logPath,
                      ownProcessGroup: true)
    }

    /// Starts `executable` with `arguments`, stdout and stderr to their own
    /// files (one file when the paths are equal); `environment` nil inherits this process's.
    public init(executable: String, arguments: [String], stdoutPath: String, stderrPath: String,
                environment: [String: String]? = nil, ownProcessGroup: Bool = false) throws(ProcessStartError) {
        pid = try ProcessSpawner.spawn(
            executable: executable, arguments: arguments, stdout: .file(stdoutPath),
            stderr: stderrPath == stdoutPath ? nil : .file(stderrPath),
            environment: environment, ownProcessGroup: ownProcessGroup
        )
        self.executable = executable
        self.stdoutPath = stdoutPath
        self.stderrPath = stderrPath
    }

    deinit {
        if isRunning { killNow() }
    }

    /// Whether the child has not exited yet (reaps it, and keeps its status, when it has).
    public var isRunning: Bool {
        reapedStatus.withLock { reaped in
            if reaped != nil { return false }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                reaped = status
                return false
            }
            if result == -1 && errno == ECHILD {
                reaped = 0xff00   // reaped elsewhere: it has exited, its code unknown (255)
                return false
            }
            return true
        }
    }

    /// Whether the child has exited (reaps it if so).
    public var hasExited: Bool { !isRunning }

    /// The exit code (or 128 + signal number) once exited, else nil.
    public var exitStatus: Int32? {
        guard !isRunning, let status = reapedStatus.withLock({ $0 }) else { return nil }
        let signalNumber = status & 0x7f
        return signalNumber == 0 ? (status >> 8) & 0xff : 128 + signalNumber
    }

    /// Sends `signal` (SIGHUP, ...) to the child if it still runs.
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// SIGKILL at once (no chance to clean up), then reaps it.
    public func killNow() {
        send(SIGKILL)
        reapBlocking()
    }

    /// SIGTERM, then SIGKILL if it has not exited within `graceMs`; reaps it.
    public func stop(graceMs: Int = 5_000) {
        send(SIGTERM)
        if waitForExit(timeoutMs: graceMs) == nil { killNow() }
    }

    /// Waits up to `timeoutMs` for the child to exit on its own (checking every
    /// 5 ms: a process's exit has no descriptor to wait on); its exit status, or nil.
    public func waitForExit(timeoutMs: Int) -> Int32? {
        let deadline = MonotonicClock.nowMs() + Int64(timeoutMs)
        while isRunning {
            if MonotonicClock.nowMs() >= deadline { return nil }
            usleep(5_000)
        }
        return exitStatus
    }

    /// Blocks until the child is reaped (after a SIGKILL), keeping its status.
    private func reapBlocking() {
        reapedStatus.withLock { reaped in
            guard reaped == nil else { return }
            var status: Int32 = 0
            reaped = waitpid(pid, &status, 0) == pid ? status : 0xff00
        }
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
