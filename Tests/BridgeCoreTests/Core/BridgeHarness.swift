@_spi(DurableRecordStore) @testable import BridgeCore

/// Drives a `Bridge` in tests: a fake clock, inputs in, effects collected.
struct BridgeHarness {
    var bridge: Bridge
    var clockMs: Int64 = 1_800_000_000_000
    var serverOffsetMs: Int64 = 0
    var effects: [BridgeEffect] = []

    init(config: BridgeConfig = .sample, remembered: [RememberedEvent] = []) {
        bridge = Bridge(config: config, rememberedUnsafeEvents: remembered, randomSeed: 42)
    }

    /// The shell's disk cannot record: every unsafe press's record fails.
    /// Either way the outcome is fed back at once, its effects added to the
    /// batch's (as `EffectExecutor` does with a recorder that answers at once).
    var recordsFail = false
    /// No record's outcome is fed back: the test feeds it.
    var holdsRecords = false

    @discardableResult
    mutating func send(_ event: BridgeInputEvent) -> [BridgeEffect] {
        var out = bridge.handle(BridgeInput(event, boardClockMs: clockMs, serverClockOffsetMs: serverOffsetMs))
        effects += out
        let recorded = out.recorded.map(\.id)
        guard !holdsRecords else { return out }
        if recordsFail, !recorded.isEmpty { out += send(.unsafeEventIdsNotRecorded(recorded)) }
        if !recordsFail {
            for event in out.recorded { out += send(.unsafeEventIdRecorded(DurableRecord(syncedRecordOf: event))) }
        }
        return out
    }

    mutating func advance(ms: Int64) { clockMs += ms }

    @discardableResult
    mutating func message(_ topic: String, _ payload: String) -> [BridgeEffect] {
        send(.mqttMessage(topic: topic, payload: Array(payload.utf8)))
    }

    /// Connects MQTT and answers every PATCH with 200 until quiet.
    mutating func connectAndSettle(states: [(String, String)] = [("home/fan/state", "ON"), ("stat/fountain/POWER", "OFF")]) {
        send(.mqttConnected)
        for (topic, payload) in states { ackAll(message(topic, payload)) }
        ackAll(send(.timerFired(.settle)))
        endPublishIntervals()
    }

    /// Lets every widget's minimum publish interval run out (as a quiet spell
    /// would), answering with 200 whatever its end publishes.
    mutating func endPublishIntervals() {
        for slug in bridge.publishers.keys.sorted() where bridge.publishers[slug]?.isInPublishInterval == true {
            ackAll(send(.timerFired(.publishInterval(slug: slug))))
        }
    }

    /// Answers every PATCH in `effects` (and the ones those answers cause) with `status`.
    mutating func ackAll(_ effects: [BridgeEffect], status: Int = 200) {
        var pending = effects.patches
        while let patch = pending.first {
            pending.removeFirst()
            pending += send(.patchCompleted(slug: patch.slug, requestId: patch.requestId, outcome: .status(status))).patches
        }
    }

    /// A press event as the service sends it.
    mutating func press(
        _ action: String, widget: String = "living-room", kind: String = "toggle", value: Bool? = true,
        id: String, ageMs: Int64 = 100
    ) -> [BridgeEffect] {
        let created = clockMs + serverOffsetMs - ageMs
        var data = "{\"widget\":\"\(widget)\",\"action\":\"\(action)\",\"kind\":\"\(kind)\""
        if let value { data += ",\"value\":\(value)" }
        data += "}"
        let json = "{\"id\":\"\(id)\",\"type\":\"widget.action.v1\",\"created_at\":\"\(Self.iso(created))\","
            + "\"expires_at\":\"\(Self.iso(created + 5_000))\",\"data\":\(data)}"
        return send(.streamEvent(StreamEvent(id: id, type: "widget.action.v1", data: json)))
    }

    /// Formats ms since the epoch as ISO 8601 UTC with milliseconds.
    static func iso(_ ms: Int64) -> String {
        ISO8601Timestamp.text(epochMs: ms)
    }
}

extension Array where Element == BridgeEffect {
    /// The effects as the shell performs them (the harness feeds each record's
    /// outcome back itself, its effects after the record's).
    var performed: [BridgeEffect] { self }

    /// The ids the batch records (one release each), in order.
    var recorded: [RememberedEvent] {
        compactMap { if case .recordThenPublish(let release) = $0 { return release.event } else { return nil } }
    }

    /// The ids the batch tells the store to forget.
    var forgotten: [String] {
        flatMap { effect -> [String] in if case .forgetUnsafeEventIds(let ids) = effect { return ids } else { return [] } }
    }

    var patches: [PatchRequest] {
        compactMap { if case .sendPatch(let request) = $0 { return request } else { return nil } }
    }

    var mqttPublishes: [(topic: String, payload: String)] {
        performed.compactMap {
            if case .publishMQTT(let message) = $0 { return (message.topic, String(decoding: message.payload, as: UTF8.self)) }
            return nil
        }
    }

    var drops: [PressDropReason] {
        performed.compactMap { if case .observe(.pressDropped(_, let reason)) = $0 { return reason } else { return nil } }
    }

    func index(where predicate: (BridgeEffect) -> Bool) -> Int? { firstIndex(where: predicate) }
}

extension BridgeConfig {
    /// A living room with a custom toggle, a Tasmota-like toggle with two state
    /// sources, a scene button and an unsafe button; plus a second widget.
    static var sample: BridgeConfig {
        var config = BridgeConfig()
        config.widgets = [
            WidgetConfig(slug: "living-room", actions: [
                ActionConfig(
                    id: "fan", label: "Fan", kind: .toggle,
                    stateSources: [StateSource(topic: "home/fan/state", field: ["power"])],
                    command: ToggleCommand(topic: "home/fan/set"),
                    availability: AvailabilitySource(topic: "home/fan/online", availableValue: "true", unavailableValue: "false")
                ),
                ActionConfig(
                    id: "fountain", label: "Fountain", color: "cyan", kind: .toggle,
                    stateSources: [
                        StateSource(topic: "stat/fountain/POWER"),
                        StateSource(topic: "stat/fountain/RESULT", field: ["POWER"]),
                    ],
                    command: ToggleCommand(topic: "cmnd/fountain/POWER"),
                    availability: AvailabilitySource(topic: "tele/fountain/LWT", availableValue: "Online", unavailableValue: "Offline"),
                    stateQuery: MQTTMessageSpec(topic: "cmnd/fountain/State", payload: "")
                ),
                ActionConfig(
                    id: "movie", label: "Movie", icon: "tv.fill", kind: .button,
                    publishes: [MQTTMessageSpec(topic: "home/scene/set", payload: "movie")],
                    activeSource: ActiveSource(topic: "home/scene/current", value: "movie"),
                    passthrough: [JSONMember("subtitle", .string("Dim the lights"))]
                ),
                ActionConfig(
                    id: "feed_cat", label: "Feed the cat", kind: .button,
                    publishes: [MQTTMessageSpec(topic: "home/feeder/cmd", payload: "dispense")],
                    repeatSafe: false
                ),
            ]),
            WidgetConfig(slug: "garden", actions: [
                ActionConfig(id: "lamp", label: "Lamp", kind: .toggle, command: ToggleCommand(topic: "garden/lamp/set"), optimistic: true),
            ]),
        ]
        return config
    }
}
