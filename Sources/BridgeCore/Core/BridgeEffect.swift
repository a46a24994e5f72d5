/// What the core asks the shell to do. The shell performs a batch's effects in
/// order. A press not safe to repeat that needs a command comes as one
/// `recordThenPublish` and nothing else: the core commits nothing of it until
/// the shell feeds back the record's outcome, `unsafeEventIdRecorded` (with the
/// store's `DurableRecord`; the press is carried out then) or
/// `unsafeEventIdsNotRecorded` (it is answered with the true state).
public enum BridgeEffect: Sendable, Equatable {
    case publishMQTT(OutgoingMQTTMessage)
    case subscribe([String])
    case unsubscribe([String])
    case sendPatch(PatchRequest)
    case startTimer(BridgeTimer, afterMs: Int64)
    case cancelTimer(BridgeTimer)
    /// A quiet timer that runs (`BridgeTimer.isQuiet`) now has work waiting for
    /// it: the shell wakes at its deadline (until it fires or starts again).
    case wakeForTimer(BridgeTimer)
    /// Record the press's id durably (an append of one record, synced), then
    /// feed the core `release.released(by:)` the store's `DurableRecord`; if
    /// the record fails, feed `unsafeEventIdsNotRecorded` with the id.
    case recordThenPublish(UnsafeRelease)
    /// Ids of presses not safe to repeat that no replay can deliver any more:
    /// the store may drop them (at its next compaction). Nothing waits for it,
    /// and a failure only keeps them longer, which is safe.
    case forgetUnsafeEventIds([String])
    /// A message to log; the shell rate-limits by `LogMessage.kind`.
    case log(BridgeLogLevel, LogMessage)
    /// Open Aivi's event stream (once per run; the shell reconnects it by itself).
    case openEventStream
    /// A fact for metrics and the status view; changes nothing by itself.
    case observe(BridgeObservation)
}

/// An MQTT message to publish.
public struct OutgoingMQTTMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: Int
    public var retain: Bool

    public init(topic: String, payload: String, qos: Int = 1, retain: Bool = false) {
        self.topic = topic
        self.payload = Array(payload.utf8)
        self.qos = qos
        self.retain = retain
    }
}

/// `PATCH /widget/{slug}` with a body; `requestId` comes back in `patchCompleted`.
public struct PatchRequest: Sendable, Equatable {
    public var slug: String
    public var body: String
    public var requestId: UInt64
    /// This PATCH answers a press: it went out at once, even inside the
    /// widget's publish interval. False for state-only publishes.
    public var answersPress: Bool = false
}

/// The timers the core starts; starting one that runs restarts it.
///
/// A quiet timer (`isQuiet`) does not wake the shell by itself: it fires at the
/// shell's first wake after its deadline, before that wake's inputs, or at its
/// deadline once the core asked for it with `wakeForTimer`. The core is right
/// either way; an idle bridge is not woken for a timer with nothing to do.
public enum BridgeTimer: Sendable, Hashable {
    /// Waiting for retained states after MQTT connected.
    case settle
    /// A failed PATCH of this widget is retried.
    case publishRetry(slug: String)
    /// The widget's minimum publish interval since its last PATCH started has
    /// passed: a state-only publish held back inside it goes out now.
    case publishInterval(slug: String)
    /// A toggle press waits for the device to confirm.
    case confirm(ActionKey)
    /// A pulsed door was pulsed (or the bridge started): no other pulse until
    /// this fires (its travel time, on the shell's monotonic timers, so a
    /// wall-clock jump cannot shorten it).
    case pulseHold(PulsedDoor)
    /// After settling and a grace: look for actions never heard from.
    case silenceCheck
    /// The broker-wide look for near misses (other-case topics) ends.
    case nearMissProbe
    /// At start: how long the event stream waits for MQTT before it opens anyway.
    case eventStreamOpenWait

    /// The publish interval is quiet: after every PATCH it runs, and only when a
    /// change is held back inside it does its end need a wake.
    public var isQuiet: Bool {
        if case .publishInterval = self { return true }
        return false
    }
}

/// An event id remembered for deduplication, with when it stops mattering.
public struct RememberedEvent: Sendable, Equatable, Hashable {
    public var id: String
    /// The press's `expires_at` on the server's clock, ms since the epoch.
    public var expiresAtMs: Int64

    public init(id: String, expiresAtMs: Int64) {
        self.id = id
        self.expiresAtMs = expiresAtMs
    }
}

/// Log levels, most severe first.
public enum BridgeLogLevel: Int, Sendable, Equatable, Comparable, CaseIterable {
    case error, warning, info, debug

    public static func < (lhs: BridgeLogLevel, rhs: BridgeLogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Something that happened (a press received, carried out or dropped; a PATCH
/// finished): an event the core emits, not a read-model of its state. Read by
/// `DaemonMetrics` (the `/metrics` counters) and `DaemonSupervisor` (the last
/// press in systemd's STATUS=); what the status page shows of the same press is
/// kept in `BridgeFacts`, since a counter cannot say which tile or why.
public enum BridgeObservation: Sendable, Equatable {
    case pressReceived(eventId: String)
    /// The press's command (or answer) went out; `ageMs` is how old the press was
    /// on the server's clock when it did.
    case pressCarriedOut(eventId: String, action: ActionKey, ageMs: Int64)
    case pressDropped(eventId: String?, reason: PressDropReason)
    case patchFinished(slug: String, status: Int?)
}

/// Why a press was not carried out.
public enum PressDropReason: String, Sendable, Equatable, CaseIterable {
    case malformed
    case unknownType = "unknown_type"
    case otherWidget = "other_widget"
    case unknownAction = "unknown_action"
    case wrongKind = "wrong_kind"
    case expired
    /// The press claimed to expire more than `AiviServiceLimits.maxClaimedLifetimeMs`
    /// after the server's clock (the guide: 5 s after it was made).
    case implausibleExpiry = "implausible_expiry"
    case duplicate
    /// The press needed an MQTT command while the broker was unreachable.
    case mqttDisconnected = "mqtt_disconnected"
    /// The press's event id could not be recorded durably, so its command was held back.
    case notRecorded = "not_recorded"
    /// The press is of an action not safe to repeat and `DedupeMemory.maxUnsafeIds`
    /// ids are remembered already (only far beyond the service's rate limits).
    case memoryFull = "memory_full"
    /// Over the action's own limit of presses becoming commands (`AiviServiceLimits`).
    case rateLimited = "rate_limited"
}
