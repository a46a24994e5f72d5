import Foundation

/// A child process started with `posix_spawn`, stdout and stderr captured to files,
/// stopped and reaped by PID.
///
/// The child gets an empty signal mask and default signal handlers: a process spawned
/// from a test thread would otherwise inherit that thread's blocked signals (dispatch
/// threads block SIGTERM, SIGHUP, ...), and `kill(pid, SIGTERM)` would not reach it.
public final class ChildProcess: @unchecked Sendable {
    public let stdoutPath: String
    public let stderrPath: String
    public let pid: pid_t
    private let lock = NSLock()
    private var reapedStatus: Int32?

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
        lock.lock()
        defer { lock.unlock() }
        if reapedStatus != nil { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
            reapedStatus = status
            return false
        }
        if result == -1 && errno == ECHILD {
            // Reaped elsewhere (e.g. by a Foundation `Process` monitor): it has exited.
            reapedStatus = 0xff00
            return false
        }
        return true
    }

    /// The exit code (or 128 + signal number) once exited, else nil.
    public var exitStatus: Int32? {
        guard !isRunning else { return nil }
        lock.lock()
        defer { lock.unlock() }
        guard let status = reapedStatus else { return nil }
        let signalNumber = status & 0x7f
        return signalNumber == 0 ? (status >> 8) & 0xff : 128 + signalNumber
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
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        let outputFlags = O_WRONLY | O_CREAT | O_TRUNC
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&fileActions, 1, stdoutPath, outputFlags, 0o644)
        posix_spawn_file_actions_addopen(&fileActions, 2, stderrPath, outputFlags, 0o644)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var defaultSignals = sigset_t()
        sigfillset(&defaultSignals)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let environmentLines = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environmentLines.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var childPid: pid_t = 0
        let result = posix_spawn(&childPid, executable, &fileActions, &attributes, &argv, &envp)
        guard result == 0 else {
            throw TestSupportError("posix_spawn \(executable) failed: \(String(cString: strerror(result)))")
        }
        return childPid
    }
}
