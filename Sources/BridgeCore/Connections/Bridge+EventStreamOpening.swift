/// Start-up order: presses arrive on the event stream, and the service replays every
/// unexpired one when the stream opens. Opened before MQTT is up, those replays would
/// be refused for "MQTT is disconnected" (a toggle or button needs its command). So the
/// stream opens once MQTT has connected, or after `eventStreamOpenWaitMs` without it (a
/// broker down for long must not keep the phone's presses unanswered for ever: then they
/// get the true state back, as while MQTT is down later).
enum EventStreamOpening: Sendable, Equatable {
    /// No `.started` yet (tests that drive the core without a start-up).
    case notStarted
    /// Started; waiting for MQTT or the deadline.
    case waitingForMQTT
    /// The shell was told to open the stream; nothing more to decide.
    case opened
}

extension Bridge {
    /// How long the event stream waits for MQTT at start before it opens anyway.
    public static let eventStreamOpenWaitMs: Int64 = 10_000

    mutating func started(_ effects: inout [BridgeEffect]) {
        guard eventStreamOpening == .notStarted else { return }
        holdPulsesAtStart(&effects)
        if isMQTTConnected {
            openEventStream(&effects)
            return
        }
        eventStreamOpening = .waitingForMQTT
        effects.append(.startTimer(.eventStreamOpenWait, afterMs: Self.eventStreamOpenWaitMs))
    }

    mutating func openEventStreamOnceMQTTIsUp(_ effects: inout [BridgeEffect]) {
        guard eventStreamOpening == .waitingForMQTT else { return }
        effects.append(.cancelTimer(.eventStreamOpenWait))
        openEventStream(&effects)
    }

    mutating func openEventStreamWithoutMQTT(_ effects: inout [BridgeEffect]) {
        guard eventStreamOpening == .waitingForMQTT else { return }
        effects.append(.log(.warning, "MQTT is still not connected \(Self.eventStreamOpenWaitMs / 1_000) s after start: "
            + "opening the event stream anyway; presses that need a command are refused until the broker is back"))
        openEventStream(&effects)
    }

    private mutating func openEventStream(_ effects: inout [BridgeEffect]) {
        eventStreamOpening = .opened
        effects.append(.openEventStream)
    }
}
