import Foundation
import TestSupport

/// The real `switchboard-bridge` binary between a real broker and a hostile
/// stand-in for the Aivi service (or the simulator): what issue 12's review did
/// by hand, as tests. Stops what it started, by PID.
final class HostileWorld: @unchecked Sendable {
    static let token = "hostile-test-token"
    let directory: TemporaryDirectory
    let broker: MosquittoBroker
    let server: HostileAiviServer
    let configPath: String
    private(set) var bridge: ChildProcess?

    /// `extraConfig` is appended at the top level of the config (e.g. a `status:` section);
    /// `mqttExtra` inside `mqtt:`; `extraActions` after the `porch` action of widget `lights`.
    init(script: [String: Any], timing: String = "", mqttExtra: String = "", extraConfig: String = "",
         extraActions: String = "", brokerOverride: MosquittoBroker? = nil) throws {
        directory = try TemporaryDirectory(prefix: "hostile")
        broker = try brokerOverride ?? MosquittoBroker()
        server = try HostileAiviServer(script: script)
        configPath = directory.file("bridge.yaml")
        let config = """
        aivi:
          api: \(server.baseURL)
          token_env: SB_HOSTILE_TOKEN
        mqtt:
          host: 127.0.0.1
          port: \(broker.port)
          client_id: bridge-under-attack
        \(mqttExtra)
        state_dir: \(directory.file("state"))
        timing:
          settle_window_ms: 100
          stop_grace_ms: 1000
        \(timing)
        \(extraConfig)
        widgets:
          - slug: lights
            actions:
              - id: porch
                label: Porch light
                kind: toggle
                zigbee2mqtt: porch
        \(extraActions)
        """
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    deinit { stopAll() }

    func startBridge(environment: [String: String] = [:], logLevel: String = "debug") throws {
        bridge = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable,
            arguments: ["run", "--config", configPath, "--log-level", logLevel],
            directory: directory.path, name: "bridge",
            environment: ["SB_HOSTILE_TOKEN": Self.token, "PATH": "/usr/bin:/bin:/usr/sbin:/sbin"].merging(environment) { _, new in new })
    }

    var log: String { bridge?.stderr ?? "" }
    var isBridgeRunning: Bool { bridge?.isRunning ?? false }
    var bridgePID: pid_t? { bridge?.pid }

    /// Ends the bridge with SIGKILL (no clean stop) and reaps it.
    func killBridge() {
        bridge?.kill9()
    }

    func waitForLog(_ text: String, timeoutSeconds: Double = 10) -> Bool {
        waitUntil(timeoutSeconds: timeoutSeconds) { log.contains(text) || !isBridgeRunning } && log.contains(text)
    }

    func stopAll() {
        bridge?.stop()
        server.stop()
        broker.stop()
    }
}
