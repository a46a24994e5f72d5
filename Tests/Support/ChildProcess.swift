import Foundation
@_exported import class ShellSupport.ChildProcess
import ShellSupport

/// What the tests add to the one child wrapper (`ShellSupport.ChildProcess`):
/// output files named after the test's child, its output read back, waits in
/// seconds, its peak memory.
extension ChildProcess {
    /// Starts `executable` with `arguments`; output goes to `directory/name.stdout|.stderr`.
    /// `environment` nil inherits this process's environment.
    public convenience init(executable: String, arguments: [String], directory: String, name: String,
                            environment: [String: String]? = nil) throws {
        do {
            try self.init(executable: executable, arguments: arguments, stdoutPath: "\(directory)/\(name).stdout",
                          stderrPath: "\(directory)/\(name).stderr", environment: environment)
        } catch {
            throw TestSupportError("\(error)")
        }
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

    /// SIGTERM, then SIGKILL if still running after `graceSeconds`; waits for the exit.
    public func stop(graceSeconds: Double) {
        stop(graceMs: Int(graceSeconds * 1_000))
    }

    /// SIGKILL at once (a crash), then waits for the exit.
    public func kill9() { killNow() }

    /// Waits for the child to exit on its own; returns its exit status or nil on timeout.
    public func waitForExit(timeoutSeconds: Double) -> Int32? {
        waitForExit(timeoutMs: Int(timeoutSeconds * 1_000))
    }

    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
}
