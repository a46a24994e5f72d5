import Testing
@_spi(DurableRecordStore) @testable import BridgeCore

/// A seeded simulation of the core (in the manner of TigerBeetle's VOPR): random
/// interleavings of device messages, presses, duplicate deliveries, PATCH
/// failures, clock jumps, MQTT drops and crashes mid-batch, with the product's
/// invariants checked after every step. A failure names its seed and step.
/// Seeds vary the minimum publish interval (200 ms default, off, 1 s, 50 ms)
/// and the dedupe settings (issue 19: the sample's; `dedupe_capacity: 16` with
/// `dedupe_margin_ms: 0`; margin 0 alone: below what `check` accepts, as the
/// core must not rely on it). The bridge's estimate of the server's clock is
/// off by up to ±1 s (a whole-second `Date`), drawn again at each restart.
/// A garage widget adds covers, locks and a pulsed door (`SimulatedCovers`);
/// both widgets have scenes made of their tiles (`SimulatedScenes`).
@Suite("Seeded simulation of the core")
struct BridgeSimulationTests {
    static let seeds: [UInt64] = Array(1...24)
    static let stepsPerSeed = 3_000

    @Test(arguments: seeds)
    func invariantsHold(seed: UInt64) {
        var world = SimulatedWorld(seed: seed)
        for step in 0..<Self.stepsPerSeed {
            world.step()
            if let violation = world.violation {
                Issue.record("seed \(seed), step \(step): \(violation)")
                return
            }
        }
        world.quiesce()
        if let violation = world.violation { Issue.record("seed \(seed), after quiescing: \(violation)") }
    }
}

/// The world around one bridge: broker, devices, service, timers, clocks.
struct SimulatedWorld {
    var random: SplitMix64
    var bridge: Bridge
    let config: BridgeConfig
    var boardClockMs: Int64 = 1_800_000_000_000
    /// The board's wall clock jumps; this one (for the interval invariant) does not.
    var clockJumpsMs: Int64 = 0
    /// When each widget's last PATCH started, on the monotonic clock (this incarnation).
    var lastPatchStartMs: [String: Int64] = [:]
    var serverOffsetMs: Int64 = 0
    /// How far the bridge's estimate of the server's clock is off (±1 s).
    var estimateErrorMs: Int64 = 0
    var timers: [BridgeTimer: Int64] = [:]
    /// Quiet timers nothing woke the shell for: like the runtime, the world does
    /// not wake for them; they fire at its next wake after their deadline.
    var quietTimers: Set<BridgeTimer> = []
    /// PATCHes sent and not yet answered, by slug (of this incarnation).
    var inFlight: [String: PatchRequest] = [:]
    var persistedUnsafe: [RememberedEvent] = []
    /// Unsafe commands that went out, by event id.
    var unsafeRuns: [String: Int] = [:]
    /// Ids whose record was made (across restarts): only those presses sent an unsafe command.
    var everRecorded: Set<UTF8Key> = []
    var delivered: [(id: String, data: String)] = []
    var pressCounter = 0
    var expiresAt: [String: Int64] = [:]
    var faultsOn = true
    var violation: String?
    /// A scene press waiting for its answer: the board time it must come by.
    var sceneAnswerDueMs: Int64?
    /// What the covers and locks last reported (issue 20's invariants).
    var coverReports = SimulatedCovers.Reports()
    /// What the scenes' tiles last reported in this run (issue 21's invariants).
    var sceneModel = SimulatedScenes.Model()

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        var config = BridgeConfig.sample
        config.widgets[0].actions += SimulatedScenes.livingRoom
        config.widgets.append(SimulatedCovers.widget)
        config.widgets[config.widgets.count - 1].actions += SimulatedScenes.garage
        config.timing.minPublishIntervalMs = [200, 0, 1_000, 50][Int(seed % 4)]
        switch (seed / 4) % 3 {
        case 1: config.timing.dedupeCapacity = 16; config.timing.dedupeMarginMs = 0
        case 2: config.timing.dedupeMarginMs = 0
        default: break
        }
        self.config = config
        bridge = Bridge(config: config, randomSeed: seed)
    }

    var serverClockMs: Int64 { boardClockMs + serverOffsetMs }
    var monotonicMs: Int64 { boardClockMs - clockJumpsMs }

    mutating func step() {
        boardClockMs += Int64.random(in: 0...300, using: &random)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<25: deviceMessage()
        case 25..<45: newPress()
        case 45..<52: redeliver()
        case 52..<72: answerPatch()
        case 72..<88: fireEarliestTimer()
        case 88..<91: feed(.mqttDisconnected); feed(.mqttConnected)
        case 91..<93: jumpBoardClock()
        case 93..<95: boardClockMs += Int64.random(in: 1_000...120_000, using: &random)
        case 95..<97: crashDuringPress()
        case 97..<98: restart()
        case 98..<99: burstOfPresses()
        default: feed(.configReloaded(config))
        }
    }

    /// The board's clock jumps (NTP, no RTC) while the server's clock runs on;
    /// the offset estimate from the stream's `Date` follows it.
    mutating func jumpBoardClock() {
        let offsetMs = Int64.random(in: -900_000...900_000, using: &random)
        let server = serverClockMs
        let jumpMs = (server - offsetMs) - boardClockMs
        boardClockMs += jumpMs
        clockJumpsMs += jumpMs
        serverOffsetMs = offsetMs
        estimateErrorMs = Int64.random(in: -HTTPDate.uncertaintyMs...HTTPDate.uncertaintyMs, using: &random)
        timers = timers.mapValues { $0 + jumpMs }   // timers run on a monotonic clock
    }

    /// Stops the faults and lets everything settle, then checks the final state.
    mutating func quiesce() {
        faultsOn = false
        feed(.mqttConnected)
        for _ in 0..<500 {
            if let request = inFlight.values.first {
                answer(request, .status(200))
            } else if timers.keys.contains(where: { !quietTimers.contains($0) }) {
                fireEarliestTimer()
            } else {
                break
            }
        }
        for widget in config.widgets where violation == nil {
            let acknowledged = bridge.acknowledgedBody(slug: widget.slug)
            if acknowledged != bridge.renderedBody(slug: widget.slug) {
                violation = "quiet, but \(widget.slug) acknowledged content differs from the rendered state"
            }
        }
    }

    mutating func deviceMessage() {
        let choices: [(String, [String])] = [
            ("home/fan/state", ["{\"power\":\"ON\"}", "{\"power\":\"OFF\"}", "junk"]),
            ("home/fan/online", ["true", "false"]),
            ("stat/fountain/POWER", ["ON", "OFF"]),
            ("stat/fountain/RESULT", ["{\"POWER\":\"ON\"}", "{\"POWER\":\"OFF\"}", "{\"Dimmer\":3}"]),
            ("tele/fountain/LWT", ["Online", "Offline"]),
            ("home/scene/current", ["movie", "evening"]),
        ] + SimulatedCovers.messages
        let (topic, payloads) = choices[Int.random(in: 0..<choices.count, using: &random)]
        let payload = payloads[Int.random(in: 0..<payloads.count, using: &random)]
        coverReports.note(topic, payload)
        sceneModel.note(topic, payload)
        feed(.mqttMessage(topic: topic, payload: Array(payload.utf8)))
    }

    mutating func newPress() {
        let presses: [(String, String, String)] = [
            ("living-room", "fan", "toggle"), ("living-room", "fountain", "toggle"),
            ("living-room", "movie", "button"), ("living-room", "feed_cat", "button"), ("garden", "lamp", "toggle"),
        ] + SimulatedCovers.presses + SimulatedScenes.presses
        let (widget, action, kind) = presses[Int.random(in: 0..<presses.count, using: &random)]
        pressCounter += 1
        let id = "evt_\(pressCounter)"
        let created = serverClockMs - Int64.random(in: 0...7_000, using: &random)
        let value = kind == "toggle" ? ",\"value\":\(Bool.random(using: &random))" : ""
        let data = "{\"id\":\"\(id)\",\"type\":\"widget.action.v1\",\"created_at\":\"\(BridgeHarness.iso(created))\","
            + "\"expires_at\":\"\(BridgeHarness.iso(created + 5_000))\",\"data\":{\"widget\":\"\(widget)\","
            + "\"action\":\"\(action)\",\"kind\":\"\(kind)\"\(value)}}"
        expiresAt[id] = created + 5_000
        delivered.append((id, data))
        if delivered.count > 64 { delivered.removeFirst() }
        feed(.streamEvent(StreamEvent(id: id, type: "widget.action.v1", data: data)))
    }

    /// The account's burst (20 presses at once), then a redelivery of some.
    mutating func burstOfPresses() {
        for _ in 0..<20 { newPress() }
        for _ in 0..<5 { redeliver() }
    }

    mutating func redeliver() {
        guard !delivered.isEmpty else { return }
        let event = delivered[Int.random(in: 0..<delivered.count, using: &random)]
        feed(.streamEvent(StreamEvent(id: event.id, type: "widget.action.v1", data: event.data)))
    }

    mutating func answerPatch() {
        guard let request = inFlight.values.sorted(by: { $0.requestId < $1.requestId }).first else { return }
        let outcomes: [PatchOutcome] = [
            .status(200), .status(200), .status(200), .status(500), .status(429, retryAfterMs: 2_000),
            .transportFailure("connection reset"), .status(401),
        ]
        answer(request, faultsOn ? outcomes[Int.random(in: 0..<outcomes.count, using: &random)] : .status(200))
    }

    mutating func answer(_ request: PatchRequest, _ outcome: PatchOutcome) {
        inFlight[request.slug] = nil
        feed(.patchCompleted(slug: request.slug, requestId: request.requestId, outcome: outcome))
    }

    /// Wakes at the earliest timer that wakes the shell; fires every timer due
    /// then (quiet ones past their deadline too), earliest first.
    mutating func fireEarliestTimer() {
        guard let atMs = timers.filter({ !quietTimers.contains($0.key) }).values.min() else { return }
        boardClockMs = max(boardClockMs, atMs)
        fireDueTimers { _ in true }
    }

    mutating func fireDueTimers(where fires: (BridgeTimer) -> Bool) {
        let due = timers.filter { $0.value <= boardClockMs && fires($0.key) }.sorted { $0.value < $1.value }.map(\.key)
        for timer in due where timers[timer] != nil {
            timers[timer] = nil
            quietTimers.remove(timer)
            feed(.timerFired(timer))
        }
    }

    /// A crash in the middle of a press's effects, then a restart.
    mutating func crashDuringPress() {
        pressCounter += 1
        let id = "evt_\(pressCounter)"
        let created = serverClockMs - 100
        let data = "{\"id\":\"\(id)\",\"type\":\"widget.action.v1\",\"created_at\":\"\(BridgeHarness.iso(created))\","
            + "\"expires_at\":\"\(BridgeHarness.iso(created + 5_000))\",\"data\":{\"widget\":\"living-room\","
            + "\"action\":\"feed_cat\",\"kind\":\"button\"}}"
        expiresAt[id] = created + 5_000
        delivered.append((id, data))
        let effects = bridge.handle(input(.streamEvent(StreamEvent(id: id, type: "widget.action.v1", data: data))))
        perform(Array(effects.prefix(Int.random(in: 0...effects.count, using: &random))))
        restart()
    }

    mutating func restart() {
        timers = [:]
        quietTimers = []
        inFlight = [:]
        lastPatchStartMs = [:]
        sceneModel = SimulatedScenes.Model()   // a new run does not know what the devices said
        estimateErrorMs = Int64.random(in: -HTTPDate.uncertaintyMs...HTTPDate.uncertaintyMs, using: &random)
        bridge = Bridge(config: config, rememberedUnsafeEvents: persistedUnsafe, randomSeed: random.next())
        // As the daemon does; the invariants (two pulses a travel time apart) span restarts.
        feed(.started)
        feed(.mqttConnected)
        // A new stream has no Last-Event-ID: the service replays every press still unexpired on its clock.
        for event in delivered where (expiresAt[event.id] ?? .min) >= serverClockMs {
            feed(.streamEvent(StreamEvent(id: event.id, type: "widget.action.v1", data: event.data)))
        }
    }

    func input(_ event: BridgeInputEvent) -> BridgeInput {
        BridgeInput(event, boardClockMs: boardClockMs, serverClockOffsetMs: serverOffsetMs + estimateErrorMs,
                    serverClockUncertaintyMs: HTTPDate.uncertaintyMs)
    }

    mutating func feed(_ event: BridgeInputEvent) {
        // A quiet timer past its deadline fires before the input of the wake that finds it.
        if case .timerFired = event {} else {
            let quiet = quietTimers
            fireDueTimers { quiet.contains($0) }
        }
        let effects = bridge.handle(input(event))
        perform(effects)
        checkSceneAnswer(event, effects)
        checkScenesOfTilesAnswer(effects)
    }

    /// Invariants of a scene button (active topic): its press is answered at
    /// once only when it is active already; otherwise a wait of at most the
    /// window is armed, and the answer comes as soon as it turns active.
    mutating func checkSceneAnswer(_ event: BridgeInputEvent, _ effects: [BridgeEffect]) {
        let movie = ActionKey(slug: "living-room", actionId: "movie")
        let window = config.timing.buttonAnswerWindowMs
        let carriedOut = effects.contains { if case .observe(.pressCarriedOut(_, movie, _)) = $0 { return true } else { return false } }
        if carriedOut {
            let isActive = bridge.states[movie]?.isActive == true
            if let armed = timers[.confirm(movie)] {
                if armed > boardClockMs + window { violation = "scene wait armed beyond the window" }
                if isActive { violation = "an active scene's press waits instead of answering" }
                sceneAnswerDueMs = sceneAnswerDueMs ?? armed
            } else if !isActive, bridge.states[movie]?.pendingPress == nil {
                violation = "an inactive scene's press answered at once, with active: false"
            }
        }
        if case .mqttMessage("home/scene/current", let payload) = event, payload == Array("movie".utf8), sceneAnswerDueMs != nil {
            if timers[.confirm(movie)] != nil { violation = "the scene turned active and its press is still waiting" }
        }
        if bridge.states[movie]?.pendingPress == nil { sceneAnswerDueMs = nil }
        if let due = sceneAnswerDueMs, timers[.confirm(movie)] == nil, bridge.states[movie]?.pendingPress != nil, boardClockMs >= due {
            violation = "a scene press is still waiting after its window and nothing will answer it"
        }
    }

    /// A scene of tiles waiting for its answer always has its window armed, no
    /// longer than the window: the widget's publishes are held meanwhile.
    mutating func checkScenesOfTilesAnswer(_ effects: [BridgeEffect]) {
        for (slug, scene) in SimulatedScenes.all {
            let key = ActionKey(slug: slug, actionId: scene.id)
            for case .startTimer(.confirm(key), let afterMs) in effects where afterMs > config.timing.buttonAnswerWindowMs {
                violation = "scene \(scene.id)'s wait armed for \(afterMs) ms, beyond the window"
            }
            if bridge.states[key]?.pendingPress != nil, timers[.confirm(key)] == nil {
                violation = "scene \(scene.id) waits and nothing will answer it"
            }
        }
    }

    /// Politeness: a state-only PATCH starts at least the interval after the
    /// widget's previous PATCH (monotonic time: wall-clock jumps do not count).
    mutating func checkPublishInterval(_ request: PatchRequest) {
        let intervalMs = config.timing.minPublishIntervalMs
        if !request.answersPress, let last = lastPatchStartMs[request.slug], monotonicMs - last < intervalMs {
            violation = "state-only PATCHes of \(request.slug) \(monotonicMs - last) ms apart (interval \(intervalMs) ms)"
        }
        lastPatchStartMs[request.slug] = monotonicMs
    }

    mutating func perform(_ effects: [BridgeEffect]) {
        for effect in effects { perform(effect) }
    }

    mutating func perform(_ effect: BridgeEffect) {
        switch effect {
        case .sendPatch(let request):
            if inFlight[request.slug] != nil { violation = "two PATCHes in flight for \(request.slug)" }
            inFlight[request.slug] = request
            checkPublishInterval(request)
            if let broken = coverReports.check(body: request.body) { violation = broken }
            if let broken = sceneModel.check(slug: request.slug, body: request.body) { violation = broken }
        case .startTimer(let timer, let afterMs):
            timers[timer] = boardClockMs + afterMs
            if timer.isQuiet { quietTimers.insert(timer) } else { quietTimers.remove(timer) }
        case .cancelTimer(let timer):
            timers[timer] = nil
            quietTimers.remove(timer)
        case .wakeForTimer(let timer):
            quietTimers.remove(timer)
        case .recordThenPublish(let release):
            persistedUnsafe.append(release.event)
            everRecorded.insert(UTF8Key(release.event.id))
            if let carryOut = release.released(by: DurableRecord(syncedRecordOf: release.event)) { feed(carryOut) }
        case .forgetUnsafeEventIds(let ids):
            let forgotten = Set(ids.map(UTF8Key.init))
            persistedUnsafe.removeAll { forgotten.contains(UTF8Key($0.id)) }
        case .observe(.pressCarriedOut(let eventId, let action, _)):
            // On the bridge's estimate of the server's clock, off by up to its uncertainty.
            if let expires = expiresAt[eventId], serverClockMs > expires + HTTPDate.uncertaintyMs {
                violation = "press \(eventId) carried out after it expired"
            }
            // An unsafe press that needed no command (a scene already in place) is
            // answered without a record; one that ran was recorded first.
            if action.actionId == "feed_cat", !everRecorded.contains(UTF8Key(eventId)) {
                violation = "unsafe press \(eventId) carried out without a record"
            }
            if action.actionId == "feed_cat" || action.actionId == "leaving", everRecorded.contains(UTF8Key(eventId)) {
                unsafeRuns[eventId, default: 0] += 1
                if unsafeRuns[eventId, default: 0] > 1 { violation = "unsafe press \(eventId) ran twice" }
            }
        case .publishMQTT(let message):
            if let broken = coverReports.check(publish: message, monotonicMs: monotonicMs) { violation = broken }
        case .subscribe, .unsubscribe, .log, .observe, .openEventStream:
            break
        }
    }
}
