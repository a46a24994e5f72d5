import AiviSim
import BridgeCore
import Foundation
import MQTTShell
import TestSupport

/// One real world for the bridge: a mosquitto broker on a free loopback port,
/// the Aivi simulator in-process, MQTT test devices, and the real
/// `switchboard-bridge` binary as a child process. Stops what it started.
final class EndToEndHarness: @unchecked Sendable {
    static let token = "e2e-test-token"
    static let widget = "living-room"

    let directory: TemporaryDirectory
    let broker: MosquittoBroker
    let simulator: AiviSimulator
    let devices: TestDevices
    let configPath: String
    private(set) var bridge: ChildProcess?
    private var bridgeStarts = 0

    init(simClock: any SimClock = SystemClock(), timing: String = EndToEndHarness.fastTiming,
         eventLifetimeMs: Int64? = nil) throws {
        directory = try TemporaryDirectory(prefix: "e2e")
        broker = try MosquittoBroker()
        var settings = SimSettings(token: Self.token, widgetSlugs: [Self.widget])
        settings.keepaliveIntervalMs = 500
        if let eventLifetimeMs { settings.rules.eventLifetimeMs = eventLifetimeMs }
        simulator = try AiviSimulator.start(settings: settings, clock: simClock)
        devices = try TestDevices(brokerPort: broker.port)
        configPath = directory.file("bridge.yaml")
        try Self.config(brokerPort: broker.port, apiURL: simulator.baseURL, stateDir: directory.file("state"), timing: timing)
            .write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    deinit { stopAll() }

    static let fastTiming = """
      confirm_timeout_ms: 1500
      settle_window_ms: 300
      publish_retry_initial_ms: 100
      publish_retry_cap_ms: 1000
      stream_dead_after_ms: 2000
      stop_grace_ms: 2000
    """

    static func config(brokerPort: Int, apiURL: String, stateDir: String, timing: String) -> String {
        """
        aivi:
          api: \(apiURL)
          token_env: SB_E2E_TOKEN
        mqtt:
          host: 127.0.0.1
          port: \(brokerPort)
          client_id: bridge-under-test
          status_topic: test/bridge/status
        state_dir: \(stateDir)
        timing:
        \(timing)
        widgets:
          - slug: \(widget)
            actions:
              - id: porch
                label: Porch light
                kind: toggle
                zigbee2mqtt: porch
              - id: movie
                label: Movie
                publish: { topic: home/scene/set, payload: movie }
              - id: feed_cat
                label: Feed the cat
                repeat_safe: false
                publish: { topic: home/feeder/cmd, payload: dispense }
              - id: dead
                label: Dead lamp
                kind: toggle
                tasmota: dead
        """
    }

    /// The built `switchboard-bridge` beside the test bundle.
    static var bridgeExecutable: String { FileCheckRun.bridgeExecutable }

    /// Starts the bridge and waits until it has published the widget once and its event
    /// stream is connected.
    /// `wrapper` runs the bridge under another program (a sandbox); `environment`
    /// adds variables (NOTIFY_SOCKET, ...).
    func startBridge(waitForFirstPublish: Bool = true, wrapper: [String] = [], environment: [String: String] = [:]) throws {
        bridgeStarts += 1
        let publishesBefore = simulator.history(slug: Self.widget).count
        let command = wrapper + [Self.bridgeExecutable, "run", "--config", configPath, "--log-level", "debug"]
        let process = try ChildProcess(
            executable: command[0], arguments: Array(command.dropFirst()),
            directory: directory.path, name: "bridge-\(bridgeStarts)",
            environment: ["SB_E2E_TOKEN": Self.token, "PATH": "/usr/bin:/bin:/usr/sbin:/sbin"]
                .merging(environment) { _, new in new }
        )
        bridge = process
        guard waitForFirstPublish else { return }
        let published = waitUntil(timeoutSeconds: 15) {
            simulator.history(slug: Self.widget).count > publishesBefore || !process.isRunning
        }
        guard published, process.isRunning else {
            throw TestSupportError("the bridge did not publish: \(process.stderr)")
        }
        // Up means presses arrive too: the stream opens once MQTT is connected, so it may
        // connect just after the first publish.
        guard waitUntil(timeoutSeconds: 15, { process.stderr.contains("event stream connected") || !process.isRunning }),
              process.isRunning else {
            throw TestSupportError("the bridge's event stream did not connect: \(process.stderr)")
        }
    }

    /// Waits until the bridge's log contains `text`.
    func waitForLog(_ text: String, timeoutSeconds: Double = 10) -> Bool {
        waitUntil(timeoutSeconds: timeoutSeconds) { bridge?.stderr.contains(text) ?? false }
    }

    var log: String { bridge?.stderr ?? "" }

    /// What the phone `phone` shows for `action` now.
    func tile(_ action: String, phone: String = "phone-a") -> TileDisplay? {
        simulator.tiles(phone: phone, widget: Self.widget).first { $0.id == action }
    }

    /// The `on` of a toggle in the last published content.
    func publishedOn(_ action: String) -> Bool? {
        guard case .array(let actions)? = simulator.content(slug: Self.widget)?["actions"] else { return nil }
        return actions.first { $0["id"]?.stringValue == action }?["on"]?.boolValue
    }

    func press(_ action: String, phone: String = "phone-a") throws -> String {
        let outcome = simulator.press(phone: phone, widget: Self.widget, action: action)
        guard outcome.isAccepted, let id = outcome.eventId else {
            throw TestSupportError("press of \(action) refused: \(String(describing: outcome.refusal))")
        }
        return id
    }

    func stopAll() {
        bridge?.stop()
        devices.stop()
        simulator.stop()
        broker.stop()
    }
}

/// Devices on the test broker: a zigbee2mqtt light that echoes its commands at
/// once, a Tasmota plug that never answers, and a recorder of every command.
final class TestDevices: @unchecked Sendable {
    let client: MQTTClient
    let received = Recorder<(topic: String, payload: String)>()
    private let echoes = Recorder<Bool>()

    init(brokerPort: Int) throws {
        let box = Box()
        client = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: brokerPort, clientId: "test-devices-\(brokerPort)")) { event in
            box.devices?.handle(event)
        }
        box.devices = self
        try client.setSubscriptions(["zigbee2mqtt/porch/set", "home/scene/set", "home/feeder/cmd", "cmnd/dead/POWER", "cmnd/dead/State", "test/bridge/status"])
        try client.start()
        guard waitUntil(timeoutSeconds: 10, { client.isConnected }) else { throw TestSupportError("devices did not connect") }
        publish("zigbee2mqtt/porch", "{\"state\":\"OFF\"}", retain: true)
        publish("zigbee2mqtt/porch/availability", "{\"state\":\"online\"}", retain: true)
        publish("stat/dead/POWER", "OFF", retain: true)
    }

    final class Box: @unchecked Sendable { weak var devices: TestDevices? }

    func handle(_ event: MQTTEvent) {
        guard case .message(let message) = event else { return }
        let payload = String(decoding: message.payload, as: UTF8.self)
        received.append((message.topic, payload))
        if message.topic == "zigbee2mqtt/porch/set", isEchoing {
            let isOn = payload.contains("\"ON\"")
            publish("zigbee2mqtt/porch", "{\"state\":\"\(isOn ? "ON" : "OFF")\",\"brightness\":254}", retain: true)
        }
    }

    /// The porch light stops answering (but stays "online").
    var isEchoing: Bool { echoes.values.last ?? true }
    func setEchoing(_ on: Bool) { echoes.append(on) }

    func commands(on topic: String) -> [String] {
        received.values.filter { $0.topic == topic }.map(\.payload)
    }

    func publish(_ topic: String, _ payload: String, retain: Bool = false) {
        try? client.publish(topic: topic, payload: Array(payload.utf8), qos: .atLeastOnce, retain: retain)
    }

    func stop() { client.stop() }
}
