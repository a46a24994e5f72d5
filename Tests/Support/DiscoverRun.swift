import AiviSim
import BridgeCore
import Foundation

/// The real binary's `discover`, `check` and `run` on one temporary directory, as
/// the discover end-to-end suites use them: `discover` on a test broker writes
/// `bridge.yaml`, `check` reads it beside a token file, `run` drives it against the
/// simulator, and a press of each tile is followed to its device and back.
public final class DiscoverRun: Sendable {
    /// How a command ended (nil: not within its time) and what it said.
    public struct Outcome: Sendable {
        public let status: Int32?
        public let stdout: String
        public let stderr: String
    }

    public let directory: TemporaryDirectory
    public let brokerPort: Int
    public let widget: String
    public let token: String
    public var configPath: String { directory.file("bridge.yaml") }
    public var tokenPath: String { directory.file("aivi-token") }

    public init(prefix: String, brokerPort: Int, widget: String = "home", token: String = "discover-e2e-token") throws {
        directory = try TemporaryDirectory(prefix: prefix)
        self.brokerPort = brokerPort
        self.widget = widget
        self.token = token
    }

    /// The simulator, knowing this run's token and widget.
    public func startSimulator() throws -> AiviSimulator {
        try AiviSimulator.start(settings: SimSettings(token: token, widgetSlugs: [widget]), clock: SystemClock())
    }

    /// One command of the binary to its end (30 s at most), in `directory`, with PATH only.
    public static func command(_ arguments: [String], directory: TemporaryDirectory, name: String) throws -> Outcome {
        let process = try ChildProcess(executable: FileCheckRun.bridgeExecutable, arguments: arguments,
                                       directory: directory.path, name: name, environment: ["PATH": "/usr/bin:/bin"])
        let status = process.waitForExit(timeoutSeconds: 30)
        if status == nil { process.stop() }
        return Outcome(status: status, stdout: process.stdout, stderr: process.stderr)
    }

    /// `discover` on the broker for `seconds`, writing `configPath` for this run's widget,
    /// token file and state directory; `api` the service's URL when given; `extra` after.
    public func discover(name: String = "discover", seconds: Int = 2, api: String? = nil, extra: [String] = []) throws -> Outcome {
        try Self.command(["discover", "--port", "\(brokerPort)", "--seconds", "\(seconds)", "--widget", widget, "--output", configPath,
                          "--token-file", tokenPath, "--state-dir", directory.file("state")]
                         + (api.map { ["--api", $0] } ?? []) + extra, directory: directory, name: name)
    }

    /// The file `discover` wrote ("" when none).
    public var writtenConfig: String { (try? String(contentsOfFile: configPath, encoding: .utf8)) ?? "" }

    /// Writes the token file (0600), then `check` on the written config.
    public func check() throws -> Outcome {
        try "\(token)\n".write(toFile: tokenPath, atomically: true, encoding: .utf8)
        chmod(tokenPath, 0o600)
        return try Self.command(["check", "--config", configPath], directory: directory, name: "check")
    }

    /// `run` on the written config, returned once it has published the widget to
    /// `simulator` (or has exited; the caller stops it by PID).
    public func run(against simulator: AiviSimulator) throws -> ChildProcess {
        let bridge = try ChildProcess(
            executable: FileCheckRun.bridgeExecutable, arguments: ["run", "--config", configPath, "--log-level", "debug"],
            directory: directory.path, name: "bridge", environment: ["PATH": "/usr/bin:/bin"])
        _ = waitUntil(timeoutSeconds: 15) { !simulator.history(slug: widget).isEmpty || !bridge.isRunning }
        return bridge
    }

    /// Presses each action (its id and command topic) on the simulator: the press is
    /// accepted, the device behind it got a command it accepts (`accepted(topic)` not
    /// empty) and the tile is confirmed on. What failed, one line each (empty: all held).
    public func pressEach(_ actions: [(id: String, commandTopic: String)], on simulator: AiviSimulator, bridge: ChildProcess,
                          accepted: (String) -> [String]) -> [String] {
        var failures: [String] = []
        for action in actions {
            guard simulator.press(phone: "phone-a", widget: widget, action: action.id).isAccepted else {
                failures.append("press of \(action.id) refused")
                continue
            }
            if !waitUntil(timeoutSeconds: 10, { !accepted(action.commandTopic).isEmpty }) {
                failures.append("the device behind \(action.id) got no command it accepts on \(action.commandTopic)\n\(bridge.stderr.suffix(3000))")
            }
            if !waitUntil(timeoutSeconds: 10, { isOn(simulator, action.id) == true }) {
                failures.append("\(action.id) was not confirmed on")
            }
        }
        return failures
    }

    private func isOn(_ simulator: AiviSimulator, _ action: String) -> Bool? {
        guard case .array(let actions)? = simulator.content(slug: widget)?["actions"] else { return nil }
        return actions.first { $0["id"]?.stringValue == action }?["on"]?.boolValue
    }
}
