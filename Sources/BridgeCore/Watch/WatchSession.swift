/// `switchboard-bridge watch`, its decisions: which topics to listen to, which
/// state queries to send, what each message means to each action, and the
/// table at the end. Pure: the shell feeds messages with the elapsed time.
public struct WatchSession: Sendable {
    /// What `watch` knows of one action after the messages so far.
    public struct ActionRecord: Sendable, Equatable {
        public var key: ActionKey
        public var label: String
        public var messagesSeen = 0
        public var state = ActionState()
        /// The reason of the last message this action could not read, if any.
        public var lastProblem: String?
        /// What the action drives (covers read open/closed, locks locked/unlocked).
        public var device: TileDevice = .plainSwitch
        /// For an action never heard from: topics the broker has (or zigbee2mqtt lists)
        /// nearly like its state topics, from the look at the end.
        public var nearMisses: [NearMiss] = []
        /// A scene's tiles (`sets:`), each with whether it holds its state now.
        public var sceneTargets: [SceneTargetStanding] = []
        /// What a press of this tile is held to (`WatchPressRule`): a lock-only lock, a pulsed door.
        public var pressRule = WatchPressRule()

        /// Whether the action is a scene of tiles.
        public var isScene: Bool { !sceneTargets.isEmpty }

        /// `on`, `off` (`open`, `closed`, `locked`, ...), `unavailable` or `unknown`;
        /// a cover's or lock's last further reading after it (`open, closing`, `unlocked, jammed`).
        public var stateWord: String {
            if isScene { return sceneTargets.allSatisfy(\.holds) ? "active" : "not active" }
            if state.isUnreachable { return "unavailable" }
            if let stopped = stoppedPartWay { return "open, " + stopped }
            let further = state.lastReading.map { ", " + WatchEvent.word(for: $0, device: device) } ?? ""
            guard let isOn = state.isOn else { return "unknown" + further }
            return device.word(on: isOn) + further
        }

        /// A cover at rest part-way (`stopped at 47 %`): open, not moving, at a
        /// position between the ends, its last word a stop or that position.
        var stoppedPartWay: String? {
            guard device == .cover, state.isOn == true, state.motion == .none, let percent = state.positionPercent,
                  (1...99).contains(percent) else { return nil }
            switch state.lastReading {
            case nil, .position?, .reading(.stopped)?, .reading(.motionStopped)?: return "stopped at \(percent) %"
            default: return nil
            }
        }

        /// True when no topic of the action's own device said anything (zigbee2mqtt's
        /// shared `bridge/state` is not its device speaking).
        public var isNeverHeard: Bool { messagesSeen == 0 }
    }

    private let topicIndex: TopicIndex
    private let config: BridgeConfig
    private var nearMissLook: TopicNearMisses?
    public private(set) var records: [ActionRecord]
    private var indexByKey: [ActionKey: Int] = [:]

    public init(config: BridgeConfig) {
        self.config = config
        topicIndex = TopicIndex(config: config)
        records = config.allActions.map { slug, action in
            var record = ActionRecord(key: ActionKey(slug: slug, actionId: action.id), label: action.label, device: action.device)
            record.pressRule = WatchPressRule(action)
            return record
        }
        for (index, record) in records.enumerated() { indexByKey[record.key] = index }
        scenes = config.allActions.compactMap { slug, action in
            guard action.isScene, let index = indexByKey[ActionKey(slug: slug, actionId: action.id)] else { return nil }
            return (index, action.sets.compactMap { target in indexByKey[ActionKey(slug: slug, actionId: target.actionId)].map { ($0, target) } })
        }
        for scene in scenes { updateScene(scene) }
    }

    /// Each scene's record and its targets' records.
    private var scenes: [(index: Int, targets: [(index: Int, target: SceneTarget)])] = []

    /// Re-reads a scene's targets; true when whether it is active changed.
    @discardableResult
    private mutating func updateScene(_ scene: (index: Int, targets: [(index: Int, target: SceneTarget)])) -> Bool {
        let wasActive = records[scene.index].isScene ? records[scene.index].stateWord == "active" : nil
        records[scene.index].sceneTargets = scene.targets.map { index, target in
            SceneTargetStanding(actionId: target.actionId, wants: target.on, holds: records[index].state.holds(on: target.on),
                                stateWord: records[index].stateWord, device: records[index].device)
        }
        return wasActive != (records[scene.index].stateWord == "active")
    }

    /// Every topic of the config, sorted.
    public var subscribedTopics: [String] { topicIndex.topics }

    /// The state queries of the presets (devices that do not retain their state),
    /// once per device as the bridge sends them: the only messages `watch` sends, and it says so.
    public var stateQueries: [OutgoingMQTTMessage] {
        StateQueryTable(config: config).allMessages
    }

    /// What one message means to every action listening to its topic: one
    /// event per action and role (Tasmota's RESULT has a listener for POWER and
    /// one for POWER1; the most telling reading of the two is shown).
    public mutating func message(topic: String, payload: [UInt8], elapsedMs: Int64) -> [WatchEvent] {
        guard let listeners = topicIndex.listeners(on: topic) else { return [] }
        let excerpt = PayloadExcerpt.make(payload)
        var events: [WatchEvent] = []
        // Keyed, not searched: one topic with thousands of listeners stays linear.
        var eventIndexByActionRole: [String: Int] = [:]
        var actionsWithEvent: Set<ActionKey> = []
        let parsed = ParsedPayload(payload, fields: topicIndex.fields(on: topic))
        // The bridge's own reading (`MessageInterpreter.readings`): what the tile shows, `watch` says.
        let readings = MessageInterpreter.readings(parsed, listeners: listeners)
        for (listener, reading) in zip(listeners, readings) {
            guard let index = indexByKey[listener.action] else { continue }
            if let taken = reading.taken { records[index].state.take(taken, as: listener.role) }
            guard let verdict = reading.said else { continue }
            if case .notUnderstood(let reason) = verdict { records[index].lastProblem = reason }
            let role = Self.roleWord(listener.role)
            let eventKey = "\(index)\u{0}\(role)"
            if let existing = eventIndexByActionRole[eventKey] {
                if Self.rank(verdict) < Self.rank(events[existing].verdict) { events[existing].verdict = verdict }
                if case .position(let percent?) = verdict { events[existing].positionPercent = percent }
            } else {
                if !Self.isShared(listener.role), actionsWithEvent.insert(listener.action).inserted { records[index].messagesSeen += 1 }
                eventIndexByActionRole[eventKey] = events.count
                var event = WatchEvent(elapsedMs: elapsedMs, action: listener.action, role: role, topic: topic,
                                       payloadExcerpt: excerpt, verdict: verdict, device: records[index].device)
                if case .position(let percent?) = verdict { event.positionPercent = percent }
                events.append(event)
            }
        }
        return events + sceneEvents(touched: actionsWithEvent, topic: topic, excerpt: excerpt, elapsedMs: elapsedMs)
    }

    /// A scene whose tiles this message touched and whose highlight changed: one
    /// event saying it is now active or inactive.
    private mutating func sceneEvents(touched: Set<ActionKey>, topic: String, excerpt: String, elapsedMs: Int64) -> [WatchEvent] {
        var events: [WatchEvent] = []
        for scene in scenes where scene.targets.contains(where: { touched.contains(records[$0.index].key) }) {
            guard updateScene(scene) else { continue }
            let record = records[scene.index]
            events.append(WatchEvent(elapsedMs: elapsedMs, action: record.key, role: "scene", topic: topic, payloadExcerpt: excerpt,
                                     verdict: .active(record.stateWord == "active")))
        }
        return events
    }

    /// The state topics of the actions never heard from: what the look for near misses compares.
    public var silentStateTopics: [String] {
        config.allActions.flatMap { slug, action in
            guard let index = indexByKey[ActionKey(slug: slug, actionId: action.id)], records[index].isNeverHeard else { return [String]() }
            return action.stateSources.map(\.topic)
        }
    }

    /// How long the look for near misses listens, and to what: as the daemon's.
    public static let nearMissLookMs = SilenceTracker.probeWindowMs
    public static let nearMissFilter = SilenceTracker.probeFilter

    /// Starts the look for near misses of the silent actions' topics (the shell listens to `#`).
    public mutating func startNearMissLook() {
        nearMissLook = TopicNearMisses(targets: silentStateTopics, configured: Set(topicIndex.topics.map(UTF8Key.init)),
                                       zigbee2mqttBase: config.mqtt.zigbee2mqttBaseTopic)
    }

    /// A message heard by the look: its topic and, for zigbee2mqtt's device list, its names.
    public mutating func nearMissMessage(topic: String, payload: [UInt8]) {
        nearMissLook?.noteHeard(topic: topic)
        nearMissLook?.noteListed(topic: topic, payload: payload)
    }

    /// Ends the look: each silent action gets the near misses of its topics.
    public mutating func endNearMissLook() {
        guard let found = nearMissLook?.found else { return }
        nearMissLook = nil
        for (slug, action) in config.allActions {
            guard let index = indexByKey[ActionKey(slug: slug, actionId: action.id)], records[index].isNeverHeard else { continue }
            var seen: Set<UTF8Key> = []
            records[index].nearMisses = action.stateSources.filter { seen.insert(UTF8Key($0.topic)).inserted }.flatMap { found[UTF8Key($0.topic)] ?? [] }
        }
    }

    /// Lower is more telling: a cover's or lock's word beyond open/closed (it
    /// says the motion or the fault; a position said beside it is kept for the
    /// word), then a state, then a position, then a payload not understood,
    /// then a field absent.
    private static func rank(_ verdict: MessageVerdict) -> Int {
        switch verdict {
        case .reading: return 0
        case .position: return 2
        case .notUnderstood: return 3
        case .fieldAbsent: return 4
        default: return 1
        }
    }

    /// zigbee2mqtt's `bridge/state` (a gateway's availability) is shared by every device: not the device speaking.
    static func isShared(_ role: TopicIndex.Role) -> Bool {
        if case .gatewayAvailability = role { return true }
        return false
    }

    static func roleWord(_ role: TopicIndex.Role) -> String {
        switch role {
        case .state: return "state"
        case .availability: return "availability"
        case .gatewayAvailability: return "gateway"
        case .active: return "active"
        }
    }
}

/// One tile of a scene as `watch` last read it.
public struct SceneTargetStanding: Sendable, Equatable {
    public var actionId: String
    /// The state the scene asks for.
    public var wants: Bool
    /// Whether the tile is known, reachable and in that state.
    public var holds: Bool
    /// What the tile reads now (`on`, `closed`, `unknown`, `unavailable`, ...).
    public var stateWord: String
    public var device: TileDevice

    /// `porch off: holds`, `garage closed: is open`.
    public var text: String {
        "\(actionId) \(device.word(on: wants)): " + (holds ? "holds" : "is \(stateWord)")
    }
}
