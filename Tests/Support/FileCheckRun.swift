import Foundation

/// What the real binary's `check` and `run` say about a config's files (modes,
/// owners, who may read or write them): a config of one button, whose `aivi:` and
/// `mqtt:` sections the test gives, run as each command. Nothing listens on the
/// loopback ports such a config names: what is said of the files comes before any
/// connection.
public enum FileCheckRun {
    /// The config: `aivi` and `mqtt` are their sections' lines (indented two spaces).
    public static func config(aivi: [String], mqtt: [String], stateDir: String) -> String {
        """
        aivi:
        \(aivi.map { "  " + $0 }.joined(separator: "\n"))
        mqtt:
        \(mqtt.map { "  " + $0 }.joined(separator: "\n"))
        state_dir: \(stateDir)
        widgets:
          - slug: w
            actions:
              - id: a
                label: A
                publish: {topic: a/set, payload: go}
        """
    }

    /// `mqtt:` lines for a password-protected broker nobody listens on.
    public static func unreachableBroker(passwordFile: String) -> [String] {
        ["host: 127.0.0.1", "port: 9", "username: bridge", "password_file: \(passwordFile)"]
    }

    /// The environment variable naming another `switchboard-bridge` binary for the tests to
    /// run (packaging/test-arm64 names a runner that execs the installed arm64 build under
    /// qemu-aarch64-static, its libraries from an arm64 trixie root).
    public static let binaryUnderTestVariable = "SWITCHBOARD_BRIDGE_UNDER_TEST"

    /// The `switchboard-bridge` the tests run: the one `binaryUnderTestVariable` names, else
    /// the one built beside the test bundle.
    public static var bridgeExecutable: String {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return bridgeExecutable(environment: ProcessInfo.processInfo.environment, testBinary: testBinary)
    }

    /// `bridgeExecutable` for a given environment and test binary path.
    public static func bridgeExecutable(environment: [String: String], testBinary: String) -> String {
        if let chosen = environment[binaryUnderTestVariable], !chosen.isEmpty { return chosen }
        return URL(fileURLWithPath: testBinary).deletingLastPathComponent().appendingPathComponent("switchboard-bridge").path
    }

    /// `switchboard-bridge run` until it has started (its start warnings written), then stopped by PID.
    public static func runUntilStarted(config: String, directory: String, environment: [String: String]) throws -> ChildProcess {
        let bridge = try ChildProcess(executable: bridgeExecutable, arguments: ["run", "--config", config],
                                      directory: directory, name: "run", environment: environment)
        let started = waitUntil(timeoutSeconds: 15) { bridge.stderr.contains("switchboard-bridge starting") }
        bridge.stop()
        guard started else { throw TestSupportError("run did not start: \(bridge.stderr)") }
        return bridge
    }

    /// `switchboard-bridge check` to its end; its exit status beside it (nil: it did not end in 20 s).
    public static func check(config: String, directory: String,
                             environment: [String: String]) throws -> (process: ChildProcess, status: Int32?) {
        let check = try ChildProcess(executable: bridgeExecutable, arguments: ["check", "--config", config],
                                     directory: directory, name: "check", environment: environment)
        return (check, check.waitForExit(timeoutSeconds: 20))
    }
}
