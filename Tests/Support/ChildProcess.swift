import Foundation

/// A child process with stdout and stderr captured to files; stopped by PID.
public final class ChildProcess: @unchecked Sendable {
    public let stdoutPath: String
    public let stderrPath: String
    private let process = Process()

    /// Starts `executable` with `arguments`; output goes to files in `directory`.
    public init(executable: String, arguments: [String], directory: String, name: String, environment: [String: String]? = nil) throws {
        stdoutPath = "\(directory)/\(name).stdout"
        stderrPath = "\(directory)/\(name).stderr"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    public var exitStatus: Int32? { process.isRunning ? nil : process.terminationStatus }

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// SIGTERM, then SIGKILL if still running after `graceSeconds`; waits for the exit.
    public func stop(graceSeconds: Double = 5) {
        send(SIGTERM)
        if !waitUntil(timeoutSeconds: graceSeconds, { !process.isRunning }) {
            send(SIGKILL)
        }
        process.waitUntilExit()
    }

    /// SIGKILL at once (a crash), then waits for the exit.
    public func kill9() {
        send(SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the child to exit on its own; returns its status or nil on timeout.
    public func waitForExit(timeoutSeconds: Double) -> Int32? {
        guard waitUntil(timeoutSeconds: timeoutSeconds, { !process.isRunning }) else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
}
