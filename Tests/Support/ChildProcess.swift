import Foundation
import ShellSupport

/// A child process started by the one spawner (`ProcessSpawner`: empty signal
/// mask, default handlers, so `kill(pid, SIGTERM)` reaches it from a test thread
/// that blocks signals), stdout and stderr captured to files, stopped and reaped by PID.
public final class ChildProcess: @unchecked Sendable {
    public let stdoutPath: String
    public let stderrPath: String
    public let pid: pid_t
    /// The wait status once reaped (the project's one lock, as the shells use it).
    private let reapedStatus = ConditionLock<Int32?>(nil)

    /// Starts `executable` with `arguments`; output goes to `directory/name.stdout|.stderr`.
    /// `environment` nil inherits this process's environment.
    public init(executable: String, arguments: [String], directory: String, name: String, environment: [String: String]? = nil) throws {
        stdoutPath = "\(directory)/\(name).stdout"
        stderrPath = "\(directory)/\(name).stderr"
        pid = try Self.spawn(
            executable: executable, arguments: arguments, environment: environment,
            stdoutPath: stdoutPath, stderrPath: stderrPath
        )
    }

    deinit {
        if isRunning { kill9() }
    }

    /// Whether the child has not exited yet (reaps it when it has).
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
                // Reaped elsewhere (e.g. by a Foundation `Process` monitor): it has exited.
                reaped = 0xff00
                return false
            }
            return true
        }
    }

    /// The exit code (or 128 + signal number) once exited, else nil.
    public var exitStatus: Int32? {
        guard !isRunning, let status = reapedStatus.withLock({ $0 }) else { return nil }
        let signalNumber = status & 0x7f
        return signalNumber == 0 ? (status >> 8) & 0xff : 128 + signalNumber
    }

    /// The child's peak resident memory so far (VmHWM of /proc/PID/status, kB), while
    /// it runs; nil once it has exited (a zombie has none). Not its rusage at the exit:
    /// the spawn shares this process's memory until the exec (vfork), and Linux keeps
    /// that peak in the child's `ru_maxrss`, so it reads as this test runner's (115 MB
    /// for a discover of 20 MB). A test samples it until the child ends, or before stopping it.
    public var peakMemoryKB: Int? { Self.statusKilobytes(pid: pid, field: "VmHWM") }

    /// A memory figure of `/proc/PID/status` (VmHWM, VmRSS, RssAnon) in kB; nil when
    /// the process is gone (a zombie has none) or the field is missing.
    public static func statusKilobytes(pid: pid_t, field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("\(field):") }) else { return nil }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
    }

    /// Sends `signal` to the child if it still runs.
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// SIGTERM, then SIGKILL if still running after `graceSeconds`; waits for the exit.
    public func stop(graceSeconds: Double = 5) {
        send(SIGTERM)
        if !waitUntil(timeoutSeconds: graceSeconds, { !isRunning }) {
            kill9()
        }
    }

    /// SIGKILL at once (a crash), then waits for the exit.
    public func kill9() {
        send(SIGKILL)
        _ = waitUntil(timeoutSeconds: 30) { !isRunning }
    }

    /// Waits for the child to exit on its own; returns its exit status or nil on timeout.
    public func waitForExit(timeoutSeconds: Double) -> Int32? {
        guard waitUntil(timeoutSeconds: timeoutSeconds, { !isRunning }) else { return nil }
        return exitStatus
    }

    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    private static func spawn(
        executable: String, arguments: [String], environment: [String: String]?,
        stdoutPath: String, stderrPath: String
    ) throws -> pid_t {
        do {
            return try ProcessSpawner.spawn(executable: executable, arguments: arguments, stdout: .file(stdoutPath),
                                            stderr: .file(stderrPath), environment: environment)
        } catch {
            throw TestSupportError("\(error)")
        }
    }
}
