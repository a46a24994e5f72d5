import MQTTShell
import ShellSupport

/// The bench's devices: one MQTT client that answers every command on
/// `bench/dN/set` at once by publishing the commanded state on `bench/dN/state`,
/// and records when each command arrived (and each unsafe button's message).
final class DeviceSimulator: Sendable {
    /// The most commands remembered (far above what a run makes).
    static let maxCommands = 100_000

    struct Command: Sendable {
        var toggle: Int
        var isOn: Bool
        var arrivedUs: Int64
    }

    /// A message of a widget's `repeat_safe: false` button (`bench/feederW/set`).
    struct ButtonCommand: Sendable {
        var widget: Int
        var arrivedUs: Int64
    }

    struct Records {
        var isConnected = false
        var commands: [Command] = []
        var buttonCommands: [ButtonCommand] = []
        /// When each pulse of the garage door's relay arrived (monotonic µs).
        var doorPulsesUs: [Int64] = []
    }

    let records = ConditionLock(Records())
    private let client: MQTTClient

    init(brokerPort: Int) throws {
        let box = ConditionLock<DeviceSimulator?>(nil)
        client = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: brokerPort, clientId: "bridge-bench-devices")) { event in
            box.withLock { $0 }?.handle(event)
        }
        box.withLock { $0 = self }
        try client.setSubscriptions(["bench/+/set"])
        try client.start()
    }

    func stop() { client.stop() }

    func waitUntilConnected(timeoutMs: Int) -> Bool {
        records.wait(timeoutMs: timeoutMs) { $0.isConnected }
    }

    var commandCount: Int { records.withLock { $0.commands.count } }

    /// The first command at index `start` or later, waiting up to `timeoutMs`.
    func waitForCommand(from start: Int, timeoutMs: Int) -> Command? {
        records.wait(timeoutMs: timeoutMs, until: { $0.commands.count > start }) { records in
            records.commands.count > start ? records.commands[start] : nil
        }
    }

    var buttonCommandCount: Int { records.withLock { $0.buttonCommands.count } }

    /// When the latest button command arrived (monotonic µs), if any did.
    var lastButtonCommandArrivedUs: Int64? { records.withLock { $0.buttonCommands.last?.arrivedUs } }

    /// The first button command at index `start` or later, waiting up to `timeoutMs`.
    func waitForButtonCommand(from start: Int, timeoutMs: Int) -> ButtonCommand? {
        records.wait(timeoutMs: timeoutMs, until: { $0.buttonCommands.count > start }) { records in
            records.buttonCommands.count > start ? records.buttonCommands[start] : nil
        }
    }

    /// When each pulse of the garage door's relay arrived (monotonic µs), oldest first.
    var doorPulsesUs: [Int64] { records.withLock { $0.doorPulsesUs } }

    /// Publishes the garage door's sensor (`open`/`closed`), retained.
    func publishDoorState(isOpen: Bool) throws {
        try client.publish(topic: BenchConfig.doorStateTopic, payload: Array((isOpen ? "open" : "closed").utf8),
                           qos: .atLeastOnce, retain: true)
    }

    /// Publishes a device's state (raw `ON`/`OFF`) as the device would.
    func publishState(toggle: Int, isOn: Bool, retain: Bool, qos: MQTTQoS = .atMostOnce) throws {
        try client.publish(topic: BenchConfig.stateTopic(toggle), payload: Array((isOn ? "ON" : "OFF").utf8), qos: qos, retain: retain)
    }

    private func handle(_ event: MQTTEvent) {
        switch event {
        case .connected:
            records.withLock { $0.isConnected = true }
        case .disconnected, .fatal, .refused:
            records.withLock { $0.isConnected = false }
        case .message(let message):
            answer(message)
        case .payloadTooLarge, .dropped:
            break
        }
    }

    private func answer(_ message: MQTTMessage) {
        let arrivedUs = MonotonicClock.nowUs()
        if message.topic == BenchConfig.doorPulseTopic {
            records.withLock { records in
                if records.doorPulsesUs.count < Self.maxCommands { records.doorPulsesUs.append(arrivedUs) }
            }
            return
        }
        if let widget = BenchConfig.widget(ofUnsafeCommandTopic: message.topic) {
            records.withLock { records in
                if records.buttonCommands.count < Self.maxCommands {
                    records.buttonCommands.append(ButtonCommand(widget: widget, arrivedUs: arrivedUs))
                }
            }
            return
        }
        guard let toggle = BenchConfig.toggle(ofCommandTopic: message.topic) else { return }
        let isOn = message.payload == Array("ON".utf8)
        try? publishState(toggle: toggle, isOn: isOn, retain: true)
        records.withLock { records in
            if records.commands.count < Self.maxCommands {
                records.commands.append(Command(toggle: toggle, isOn: isOn, arrivedUs: arrivedUs))
            }
        }
    }
}
