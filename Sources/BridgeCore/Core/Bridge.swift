/// The pure heart of switchboard-bridge: every decision of the product, as a
/// value that takes inputs and returns effects.
///
/// No clocks, threads or I/O: the shell feeds `handle(_:)` with what happened
/// (each input carrying the time) and performs the effects it returns, in order.
public struct Bridge: Sendable {
    public internal(set) var config: BridgeConfig
    /// What is known of each action's device.
    public internal(set) var states = ActionStates()
    public internal(set) var isMQTTConnected = false
    public internal(set) var isEventStreamConnected = false
    /// False from start until retained states have settled after MQTT connected.
    public internal(set) var isSettled = false
    /// Whether the shell writes `.debug` log effects; when false the core does not
    /// make them (the daemon sets it from its log level; no decision depends on it).
    public var writesDebugLog = true

    var widgetsBySlug: [String: WidgetConfig] = [:]
    var actionsByKey: [ActionKey: ActionConfig] = [:]
    var topicIndex: TopicIndex
    var publishers: [String: WidgetPublisher] = [:]
    /// Widgets to publish once the current input is applied (`publishChanges`).
    var widgetsToPublish: Set<String> = []
    /// Each widget's buttons with a highlight (an active topic, or `sets:`), in config order.
    var highlightedBySlug: [String: [ActionKey]] = [:]
    /// Whether any of them is a scene (`deriveSceneHighlights` has work; set with them).
    var hasScenes = false
    /// Each widget's body with the config's part pre-serialized (rebuilt on reload).
    var templates: [String: WidgetTemplate] = [:]
    /// Bodies rendered since start (what the tests count: a body is rendered only
    /// when what its tiles show changed).
    var bodyRenderCount = 0
    var dedupe: DedupeMemory
    /// Each device command topic's bound on presses becoming commands
    /// (`AiviServiceLimits.actionCommandBurst`); only the config's topics.
    var commandBuckets: [UTF8Key: TokenBucket] = [:]
    /// Presses not safe to repeat whose record is under way, by event id: none
    /// of each is committed until its record's outcome comes back. At most one
    /// per unsafe id `dedupe` remembers, which it bounds.
    var unsafePressesBeingRecorded: [UTF8Key: PressEnvelope] = [:]
    var random: SplitMix64
    var nextRequestId: UInt64 = 1
    var answerGeneration: UInt64 = 0
    /// Topics whose last payload was not understood (logged once until fixed).
    var topicsWithUnreadablePayload: Set<UTF8Key> = []
    /// An event with an absurd id was reported once; later ones go to debug.
    var hasWarnedAboutAbsurdEventId = false
    /// Topics whose multi-endpoint payload was explained once (no `channel`).
    var topicsWithEndpointHint: Set<UTF8Key> = []
    /// Topics whose device said it switched itself off (logged once until on/off).
    var topicsReportingProtectiveOff: Set<UTF8Key> = []
    /// Locks that said they are jammed (logged once until they say otherwise).
    var actionsReportingJammed: Set<ActionKey> = []
    /// Pulsed doors inside a travel time, by door (not by tile: a reload keeps them).
    var pulseHolds: [PulsedDoor: PulseHold] = [:]
    /// Doors pulsed since MQTT last connected: a pulse the broker had not yet
    /// passed on when the link was lost (a stalled broker) may reach the relay
    /// as it resumes, so each is held again for its travel time on reconnect.
    var doorsPulsedOnThisLink: Set<PulsedDoor> = []
    /// The start held the pulsed doors: the first MQTT connect holds them again
    /// (a pulse the run before sent into a stalled broker reaches the relay when
    /// the broker resumes, before this run can connect, maybe after the start's hold).
    var holdsDoorsAtFirstConnect = false
    /// What was heard since start, for the "never heard from" warning.
    var silence = SilenceTracker()
    /// Topics whose oversized payloads were already logged (bounded).
    var topicsWithOversizedPayload: Set<UTF8Key> = []
    /// Device payloads parsed as JSON and fields looked up in them since start:
    /// one parse per message and one lookup per distinct field of its topic,
    /// whatever the number of listeners (what the tests count).
    var payloadJSONParseCount = 0
    var payloadFieldLookupCount = 0
    /// When each device was last asked for its state (a device coming back is asked once).
    var stateQueries = StateQueryPacer()
    /// What asks each device for its state, one sending per device (rebuilt on reload).
    var stateQueryTable = StateQueryTable([])
    /// Where the event stream is in its start-up (see `Bridge+EventStreamOpening`).
    var eventStreamOpening = EventStreamOpening.notStarted
    /// What happened, for the status page (`snapshot(serverClockOffsetMs:)`).
    var facts = BridgeFacts()

    /// A bridge for `config`, remembering the unsafe event ids persisted by an
    /// earlier run; `randomSeed` makes the retry jitter reproducible.
    public init(config: BridgeConfig, rememberedUnsafeEvents: [RememberedEvent] = [], randomSeed: UInt64 = 0) {
        self.config = config
        topicIndex = TopicIndex(config: config)
        dedupe = DedupeMemory(
            marginMs: config.timing.dedupeMarginMs,
            capacity: config.timing.dedupeCapacity,
            remembered: rememberedUnsafeEvents
        )
        random = SplitMix64(seed: randomSeed)
        adoptWidgets(of: config)
    }

    /// Room made for an input's effects at once: a press comes to about eight
    /// (observations, its command, log lines, timers, its PATCH), a state message
    /// to two or three; grown one append at a time, the array was reallocated
    /// three or four times an input. Only a first allocation's size: more still fit.
    static let usualEffectCount = 8

    /// Handles one input and returns what the shell must do, in order.
    public mutating func handle(_ input: BridgeInput) -> [BridgeEffect] {
        var effects: [BridgeEffect] = []
        effects.reserveCapacity(Self.usualEffectCount)
        noteConnections(input)
        switch input.event {
        case .started: started(&effects)
        case .mqttConnected:
            mqttConnected(input, &effects)
            openEventStreamOnceMQTTIsUp(&effects)
        case .mqttDisconnected: mqttDisconnected(&effects)
        case .mqttMessage(let topic, let payload): mqttMessage(topic, payload, input, &effects)
        case .mqttPayloadTooLarge(let topic, let byteCount): payloadTooLarge(topic, byteCount, &effects)
        case .eventStreamConnected:
            isEventStreamConnected = true
            retryWidgetsRefusedForTheToken(&effects)
        case .eventStreamDisconnected, .eventStreamTokenRefused: isEventStreamConnected = false
        case .streamEvent(let event): streamEvent(event, input, &effects)
        case .patchCompleted(let slug, let requestId, let outcome):
            notePatchFinished(slug, requestId, outcome, input)
            patchCompleted(slug, requestId, outcome, &effects)
        case .timerFired(let timer): timerFired(timer, input, &effects)
        case .configReloaded(let newConfig): reload(newConfig, input, &effects)
        case .unsafeEventIdRecorded(let record): unsafeEventIdRecorded(record, input, &effects)
        case .unsafeEventIdsNotRecorded(let eventIds): unsafeEventIdsNotRecorded(eventIds, &effects)
        }
        publishChanges(input, &effects)
        return effects
    }

    /// Every topic the bridge subscribes to, sorted.
    public var subscribedTopics: [String] { topicIndex.topics }

    /// The PATCH body that the current state renders for a widget.
    public func renderedBody(slug: String) -> String? {
        templates[slug]?.body(states: states)
    }

    /// The body the service last acknowledged for a widget.
    public func acknowledgedBody(slug: String) -> String? {
        publishers[slug]?.lastAcknowledgedBody
    }

    /// Whether a PATCH of this widget is in flight.
    public func isPatchInFlight(slug: String) -> Bool {
        publishers[slug]?.inFlight != nil
    }

    /// Indexes the widgets and actions of a config and gives each widget a publisher.
    mutating func adoptWidgets(of config: BridgeConfig) {
        widgetsBySlug = [:]
        templates = [:]
        for slug in publishers.keys { publishers[slug]?.lastRender = nil }   // renders of the old templates
        facts.keep(only: config)
        actionsByKey = [:]
        highlightedBySlug = [:]
        stateQueryTable = StateQueryTable(config: config)
        let order = config.widgets.flatMap { widget in widget.actions.map { ActionKey(slug: widget.slug, actionId: $0.id) } }
        let commandTopics = Set(config.widgets.flatMap(\.actions).flatMap(Self.configuredCommandTopics).map(UTF8Key.init))
        commandBuckets = commandBuckets.filter { commandTopics.contains($0.key) }
        states = ActionStates(order: order, keeping: states)
        for widget in config.widgets {
            widgetsBySlug[widget.slug] = widget
            templates[widget.slug] = WidgetTemplate(widget: widget, slotsIn: states)
            publishers[widget.slug, default: WidgetPublisher()].minPublishIntervalMs =
                widget.minPublishIntervalMs ?? config.timing.minPublishIntervalMs
            for action in widget.actions {
                let key = ActionKey(slug: widget.slug, actionId: action.id)
                actionsByKey[key] = action
                if action.hasHighlight { highlightedBySlug[widget.slug, default: []].append(key) }
                if states[key] == nil { states[key] = ActionState() }
            }
        }
        hasScenes = highlightedBySlug.values.contains { keys in keys.contains { actionsByKey[$0]?.isScene == true } }
        states.awaitState(of: actionsByKey.lazy.filter { Self.awaitsState($0.value) }.map(\.key))
    }
}
