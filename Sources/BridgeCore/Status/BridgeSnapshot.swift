/// What the bridge is and knows, read-only: the core's one read-model. Its
/// readers: the status endpoints (the page at `/`, the Webhook Widget view,
/// `/healthz`, `/metrics`'s gauges) and the demo's page. Made by
/// `Bridge.snapshot(serverClockOffsetMs:)` only when a status client asks (the
/// daemon's `BridgeRuntime.statusSnapshot()`), never after every batch: the
/// watchdog and systemd's STATUS= read the smaller `BatchSummary`.
public struct BridgeSnapshot: Sendable {
    public var config: BridgeConfig
    public var states: ActionStates
    public var isMQTTConnected: Bool
    public var isEventStreamConnected: Bool
    /// True once retained states have settled and the first publishes went out.
    public var isSettled: Bool
    /// Server clock minus board clock, milliseconds (0 before any `Date`).
    public var serverClockOffsetMs: Int64
    /// Connections, publishing and per-action facts.
    public var facts = BridgeFacts()
    /// Each widget's publisher, shared with the core's (read through `publishing(slug:)`).
    var publishers: [String: WidgetPublisher] = [:]
    /// Configured topics heard since start.
    var heardTopics: Set<UTF8Key> = []
    /// Configured topic -> topics on the broker that differ only by case.
    var nearMisses: [UTF8Key: [NearMiss]] = [:]
    /// For the current body, rendered only when asked.
    var templates: [String: WidgetTemplate] = [:]

    public init(
        config: BridgeConfig, states: [ActionKey: ActionState], isMQTTConnected: Bool,
        isEventStreamConnected: Bool, isSettled: Bool, serverClockOffsetMs: Int64
    ) {
        self.init(config: config, states: ActionStates(states), isMQTTConnected: isMQTTConnected,
                  isEventStreamConnected: isEventStreamConnected, isSettled: isSettled, serverClockOffsetMs: serverClockOffsetMs)
    }

    /// The same with the core's own table of states (shared, not copied).
    init(
        config: BridgeConfig, states: ActionStates, isMQTTConnected: Bool,
        isEventStreamConnected: Bool, isSettled: Bool, serverClockOffsetMs: Int64
    ) {
        self.config = config
        self.states = states
        self.isMQTTConnected = isMQTTConnected
        self.isEventStreamConnected = isEventStreamConnected
        self.isSettled = isSettled
        self.serverClockOffsetMs = serverClockOffsetMs
    }

    /// A widget's publishing state: what the service acknowledged, what is on its way.
    public func publishing(slug: String) -> WidgetPublishState {
        guard let publisher = publishers[slug] else { return WidgetPublishState() }
        return WidgetPublishState(
            acknowledgedBody: publisher.lastAcknowledgedBody, isInFlight: publisher.inFlight != nil,
            isRetryScheduled: publisher.isRetryScheduled, isInPublishInterval: publisher.isInPublishInterval,
            refusedStatus: publisher.loggedPermanentStatus)
    }

    /// The body the bridge would publish now for a widget.
    public func currentBody(slug: String) -> String? {
        templates[slug]?.body(states: states)
    }

    /// Why what phones show differs from what the bridge would publish now;
    /// nil when they agree.
    public func publishMarker(slug: String) -> PublishMarker? {
        let state = publishing(slug: slug)
        guard let current = currentBody(slug: slug), current != state.acknowledgedBody else { return nil }
        if state.isInFlight { return .pending }
        if let status = state.refusedStatus { return .refused(facts.publishing[slug]?.lastError ?? "HTTP \(status)") }
        if state.isRetryScheduled { return .retrying(facts.publishing[slug]?.lastError ?? "a failure") }
        if state.isInPublishInterval { return .heldByInterval }
        if !isSettled { return .waitingForSettle }
        return .pending
    }

    /// True when an action listens for state and none of its state topics spoke since start.
    public func isNeverHeard(_ action: ActionConfig) -> Bool {
        !action.stateSources.isEmpty && !action.stateSources.contains { heardTopics.contains(UTF8Key($0.topic)) }
    }

    /// Topics on the broker (or devices zigbee2mqtt lists) nearly like this action's
    /// state topics, from the bridge's near-miss look.
    public func nearMisses(of action: ActionConfig) -> [NearMiss] {
        var seen: Set<UTF8Key> = []
        return action.stateSources.filter { seen.insert(UTF8Key($0.topic)).inserted }.flatMap { nearMisses[UTF8Key($0.topic)] ?? [] }
    }
}

/// One widget's publisher, as the snapshot shows it.
public struct WidgetPublishState: Sendable, Equatable {
    /// The body the service last acknowledged: what phones show.
    public var acknowledgedBody: String?
    public var isInFlight = false
    public var isRetryScheduled = false
    public var isInPublishInterval = false
    /// The permanent HTTP status of the current failure streak.
    public var refusedStatus: Int?

    public init(acknowledgedBody: String? = nil, isInFlight: Bool = false, isRetryScheduled: Bool = false,
                isInPublishInterval: Bool = false, refusedStatus: Int? = nil) {
        self.acknowledgedBody = acknowledgedBody
        self.isInFlight = isInFlight
        self.isRetryScheduled = isRetryScheduled
        self.isInPublishInterval = isInPublishInterval
        self.refusedStatus = refusedStatus
    }
}

/// Why the bridge's current body differs from what the service holds.
public enum PublishMarker: Sendable, Equatable {
    /// A PATCH of it is on its way.
    case pending
    /// Retrying after a failure (its words).
    case retrying(String)
    /// Held back by the widget's minimum publish interval.
    case heldByInterval
    /// Refused by the service (its reason and the hint).
    case refused(String)
    /// Not published before the retained states settle.
    case waitingForSettle

    public var words: String {
        switch self {
        case .pending: return "an update is on its way to the service"
        case .retrying(let error): return "retrying after \(error)"
        case .heldByInterval: return "an update waits for the publish interval"
        case .refused(let reason): return "the service refused the update: \(reason)"
        case .waitingForSettle: return "not published yet: waiting for the devices' retained states"
        }
    }
}
