import MQTTShell
import ShellSupport

/// The soak's devices, on one MQTT client: each toggle answers its commands at
/// once (while online) by publishing its new state, retained, as its firmware
/// does; every device republishes its availability and state whenever the
/// client (re)connects, as real devices do after a broker restart. Keeps the
/// truth (what each device really is) and every command that arrived.
final class SoakFleet: Sendable {
    /// The most commands and state changes remembered (far above a 60-minute run).
    static let maxRecords = 500_000
    /// The most truth changes and disturbances remembered per device.
    static let maxPerDevice = 100_000

    struct Command: Sendable {
        var actionIndex: Int
        var requestedOn: Bool?
        var arrivedUs: Int64
    }

    /// One device's truth from `sinceUs` on.
    struct Truth: Sendable {
        var sinceUs: Int64
        var isOn: Bool
        var isOnline: Bool
    }

    struct Records {
        var isOn: [Bool]
        var isOnline: [Bool]
        /// Changes of each toggle's truth, oldest first (the first is the initial one).
        var history: [[Truth]]
        /// When each device changed by itself (chatter, a wall switch, offline/online), oldest first.
        var disturbancesUs: [[Int64]]
        var commands: [Command] = []
        var queries = 0
        var statesPublished = 0
        var connects = 0
    }

    let actions: [SoakAction]
    let records: ConditionLock<Records>
    private let client: MQTTClient
    private let actionByCommandTopic: [String: Int]

    init(actions: [SoakAction], brokerPort: Int, random: inout SoakRandom) throws {
        self.actions = actions
        var byTopic: [String: Int] = [:]
        for action in actions {
            byTopic[action.commandTopic] = action.index
            if let query = action.queryTopic { byTopic[query] = action.index }
        }
        actionByCommandTopic = byTopic
        let initial = actions.map { _ in random.bool() }
        records = ConditionLock(Records(
            isOn: initial, isOnline: actions.map { _ in true },
            history: initial.map { [Truth(sinceUs: 0, isOn: $0, isOnline: true)] },
            disturbancesUs: actions.map { _ in [] }))
        let box = ConditionLock<SoakFleet?>(nil)
        client = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: brokerPort, clientId: "bridge-soak-devices")) { event in
            box.withLock { $0 }?.handle(event)
        }
        box.withLock { $0 = self }
        try client.setSubscriptions(Set(byTopic.keys))
        try client.start()
    }

    func stop() { client.stop() }

    func waitUntilConnected(timeoutMs: Int) -> Bool {
        records.wait(timeoutMs: timeoutMs) { $0.connects > 0 } && client.isConnected
    }

    // MARK: the devices acting on their own

    /// A device changes by itself (a wall switch, chatter): new state, published.
    /// On the client's loop thread, where its callbacks take `records` too (a publish
    /// made under `records` from another thread would wait for the loop while a callback
    /// waits for `records`).
    func change(_ index: Int, isOn: Bool) {
        client.onLoopThread { [self] in
            records.withLock { records in
                noteDisturbance(index, &records)
                setTruth(index, isOn: isOn, isOnline: records.isOnline[index], &records)
                if records.isOnline[index] { publishState(index, isOn: isOn, &records) }
            }
        }
    }

    /// A device goes offline (its last will, retained) or comes back (online, then its state).
    func setOnline(_ index: Int, _ isOnline: Bool) {
        client.onLoopThread { [self] in
            records.withLock { records in
                noteDisturbance(index, &records)
                setTruth(index, isOn: records.isOn[index], isOnline: isOnline, &records)
                publish(actions[index].availabilityTopic, actions[index].availabilityPayload(isOnline: isOnline))
                if isOnline { publishState(index, isOn: records.isOn[index], &records) }
            }
        }
    }

    // MARK: what the soak reads

    func truth(_ index: Int) -> (isOn: Bool, isOnline: Bool) {
        records.withLock { ($0.isOn[index], $0.isOnline[index]) }
    }

    /// The device's truth at `atUs` (bench clock).
    func truth(_ index: Int, atUs: Int64) -> Truth? {
        records.withLock { $0.history[index].last { $0.sinceUs <= atUs } }
    }

    /// Whether the device did anything by itself in `fromUs...toUs`.
    func wasDisturbed(_ index: Int, fromUs: Int64, toUs: Int64) -> Bool {
        records.withLock { $0.disturbancesUs[index].contains { $0 >= fromUs && $0 <= toUs } }
    }

    /// Whether the device was online throughout `fromUs...toUs`.
    func wasOnline(_ index: Int, fromUs: Int64, toUs: Int64) -> Bool {
        records.withLock { records in
            let history = records.history[index]
            let atStart = history.last { $0.sinceUs <= fromUs }
            return (atStart?.isOnline ?? true) && !history.contains { $0.sinceUs > fromUs && $0.sinceUs <= toUs && !$0.isOnline }
        }
    }

    var commands: [Command] { records.withLock { $0.commands } }

    // MARK: MQTT

    private func handle(_ event: MQTTEvent) {
        switch event {
        case .connected:
            records.withLock { records in
                records.connects += 1
                for action in actions where action.isToggle {
                    publish(action.availabilityTopic, action.availabilityPayload(isOnline: records.isOnline[action.index]))
                    if records.isOnline[action.index] { publishState(action.index, isOn: records.isOn[action.index], &records) }
                }
            }
        case .disconnected, .dropped, .fatal, .refused, .payloadTooLarge:
            break
        case .message(let message):
            answer(message)
        }
    }

    private func answer(_ message: MQTTMessage) {
        let arrivedUs = MonotonicClock.nowUs()
        guard let index = actionByCommandTopic[message.topic] else { return }
        let action = actions[index]
        let payload = String(decoding: message.payload, as: UTF8.self)
        records.withLock { records in
            if message.topic == action.queryTopic || (action.isToggle && payload.isEmpty) {
                records.queries += 1
                if records.isOnline[index] { publishState(index, isOn: records.isOn[index], &records) }
                return
            }
            let requested = action.requestedState(commandPayload: payload)
            if records.commands.count < Self.maxRecords {
                records.commands.append(Command(actionIndex: index, requestedOn: requested, arrivedUs: arrivedUs))
            }
            guard action.isToggle, let requested, records.isOnline[index] else { return }
            setTruth(index, isOn: requested, isOnline: true, &records)
            publishState(index, isOn: requested, &records)
        }
    }

    private func noteDisturbance(_ index: Int, _ records: inout Records) {
        if records.disturbancesUs[index].count < Self.maxPerDevice {
            records.disturbancesUs[index].append(MonotonicClock.nowUs())
        }
    }

    private func setTruth(_ index: Int, isOn: Bool, isOnline: Bool, _ records: inout Records) {
        records.isOn[index] = isOn
        records.isOnline[index] = isOnline
        if records.history[index].count < Self.maxPerDevice {
            records.history[index].append(Truth(sinceUs: MonotonicClock.nowUs(), isOn: isOn, isOnline: isOnline))
        } else {
            records.history[index][records.history[index].count - 1] = Truth(sinceUs: MonotonicClock.nowUs(), isOn: isOn, isOnline: isOnline)
        }
    }

    private func publishState(_ index: Int, isOn: Bool, _ records: inout Records) {
        records.statesPublished += 1
        publish(actions[index].stateTopic, actions[index].statePayload(isOn: isOn))
    }

    private func publish(_ topic: String, _ payload: String) {
        try? client.publish(topic: topic, payload: Array(payload.utf8), qos: .atLeastOnce, retain: true)
    }
}
