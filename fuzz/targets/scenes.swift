@_spi(DurableRecordStore) @testable import BridgeCore

/// Scenes (issue 43): 2-5 switch tiles and 1-4 scenes made of them, then up to
/// 200 operations: device messages (on, off, a word it does not know),
/// availability, scene presses, tile presses, replays of earlier event ids, timers,
/// time passing, reloads of the same config, MQTT reconnects, and the service's
/// answers to each PATCH (200, 500, 429, a transport failure). Checked after each:
/// - a scene shown active in a PATCH has every tile it sets drawn in its state in
///   that same body, and each known (it last reported that state) and reachable;
/// - two scenes that cannot both hold (they set a tile two ways) are never both active;
/// - a scene press never commands a tile that last reported its state, is reachable
///   and has no command under way (one whose state it has not reported, whose wait
///   has not ended);
/// - a replayed event id publishes nothing on MQTT.
///
/// Input: one byte for the tiles (2 + N % 4), one for the scenes (1 + N % 4), two
/// per scene (which tiles it sets, bit per tile; the state of each), then two bytes
/// per operation (operation, argument).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(start, count)
    let tileCount = 2 + Int(input.byte() % 4)
    let sceneCount = 1 + Int(input.byte() % 4)
    var scenes: [[Int: Bool]] = []
    for _ in 0..<sceneCount {
        let mask = Int(input.byte()), states = Int(input.byte())
        var sets: [Int: Bool] = [:]
        for tile in 0..<tileCount where mask & (1 << tile) != 0 { sets[tile] = states & (1 << tile) != 0 }
        if sets.isEmpty { sets[0] = states & 1 != 0 }
        scenes.append(sets)
    }
    var world = SceneWorld(tileCount: tileCount, scenes: scenes)
    var operations = 0
    while input.hasMore, operations < 200 {
        operations += 1
        world.step(operation: input.byte(), argument: input.byte())
    }
    return 0
}

private struct SceneWorld {
    let tileCount: Int
    let scenes: [[Int: Bool]]
    let config: BridgeConfig
    var bridge: Bridge
    var nowMs = exampleNowMs
    var timers: [BridgeTimer: Int64] = [:]
    var inFlight: [String: PatchRequest] = [:]
    /// What each tile's device last reported (nil: nothing that holds).
    var reported: [Int: Bool] = [:]
    var unreachable: Set<Int> = []
    /// Tiles with a command under way: the state it asked for, until the device
    /// reports that state or the bridge's wait for it ends (its confirm timer).
    var commanded: [Int: Bool] = [:]
    var delivered: [(id: String, data: String)] = []
    var pressCounter = 0

    init(tileCount: Int, scenes: [[Int: Bool]]) {
        self.tileCount = tileCount
        self.scenes = scenes
        var config = BridgeConfig()
        let tiles = (0..<tileCount).map { tile in
            ActionConfig(id: "t\(tile)", label: "Tile \(tile)", kind: .toggle, stateSources: [StateSource(topic: "s/\(tile)")],
                         command: ToggleCommand(topic: "s/\(tile)/set"),
                         availability: AvailabilitySource(topic: "s/\(tile)/online", availableValue: "online", unavailableValue: "offline"))
        }
        let sceneActions = scenes.enumerated().map { index, sets in
            ActionConfig(id: "scene\(index)", label: "Scene \(index)", kind: .button,
                         sets: sets.sorted { $0.key < $1.key }.map { SceneTarget(actionId: "t\($0.key)", on: $0.value) })
        }
        config.widgets = [WidgetConfig(slug: "home", actions: tiles + sceneActions)]
        self.config = config
        bridge = Bridge(config: config, randomSeed: 7)
        feed(.mqttConnected)
        feed(.eventStreamConnected)
    }

    mutating func step(operation: UInt8, argument: UInt8) {
        let tile = Int(argument) % tileCount
        nowMs += Int64(operation / 16) * 20
        switch operation % 11 {
        case 0:
            let payload = ["ON", "OFF", "HALF"][Int(argument / 8) % 3]
            if payload != "HALF" { reported[tile] = payload == "ON" }
            if payload != "HALF", commanded[tile] == reported[tile] { commanded[tile] = nil }
            feed(.mqttMessage(topic: "s/\(tile)", payload: Array(payload.utf8)))
        case 1:
            let online = argument & 0x80 == 0
            if online { unreachable.remove(tile) } else { unreachable.insert(tile) }
            feed(.mqttMessage(topic: "s/\(tile)/online", payload: Array((online ? "online" : "offline").utf8)))
        case 2: press(action: "scene\(Int(argument) % scenes.count)", kind: "button", value: nil)
        case 3: press(action: "t\(tile)", kind: "toggle", value: argument & 0x80 != 0)
        case 4: replay(Int(argument))
        case 5: answerPatch(argument)
        case 6: fireEarliestTimer()
        case 7: feed(.mqttDisconnected); feed(.mqttConnected)
        case 8: feed(.configReloaded(config))
        case 9: nowMs += Int64(argument) * 100
        default: answerPatch(0)
        }
    }

    mutating func press(action: String, kind: String, value: Bool?) {
        pressCounter += 1
        let id = "evt_\(pressCounter)"
        let created = nowMs - 100
        let valueText = value.map { ",\"value\":\($0)" } ?? ""
        let data = "{\"id\":\"\(id)\",\"type\":\"widget.action.v1\",\"created_at\":\"\(SimTimeFormat.iso8601(ms: created))\","
            + "\"expires_at\":\"\(SimTimeFormat.iso8601(ms: created + 5_000))\",\"data\":{\"widget\":\"home\","
            + "\"action\":\"\(action)\",\"kind\":\"\(kind)\"\(valueText)}}"
        delivered.append((id, data))
        let already = (0..<tileCount).filter { reported[$0] != nil && !unreachable.contains($0) && commanded[$0] == nil }
        let effects = feed(.streamEvent(StreamEvent(id: id, type: "widget.action.v1", data: data)))
        guard let scene = action.hasPrefix("scene") ? Int(action.dropFirst(5)) : nil else { return }
        for message in published(effects) {
            guard let commandedTile = (0..<tileCount).first(where: { message.topic == "s/\($0)/set" }) else { continue }
            let target = scenes[scene][commandedTile]
            fuzzCheck(!(already.contains(commandedTile) && reported[commandedTile] == target),
                      "scene\(scene)'s press commanded tile t\(commandedTile), which reported \(target.map(String.init) ?? "?") already")
        }
    }

    mutating func replay(_ index: Int) {
        guard !delivered.isEmpty else { return }
        let event = delivered[index % delivered.count]
        let effects = feed(.streamEvent(StreamEvent(id: event.id, type: "widget.action.v1", data: event.data)))
        fuzzCheck(published(effects).isEmpty, "the replay of \(event.id) published \(published(effects).map(\.topic))")
    }

    mutating func answerPatch(_ argument: UInt8) {
        guard let request = inFlight.values.sorted(by: { $0.requestId < $1.requestId }).first else { return }
        let outcomes: [PatchOutcome] = [.status(200), .status(200), .status(500), .status(429, retryAfterMs: 2_000), .transportFailure("reset")]
        inFlight[request.slug] = nil
        feed(.patchCompleted(slug: request.slug, requestId: request.requestId, outcome: outcomes[Int(argument) % outcomes.count]))
    }

    mutating func fireEarliestTimer() {
        guard let (timer, dueMs) = timers.min(by: { $0.value < $1.value || ($0.value == $1.value && "\($0.key)" < "\($1.key)") }) else { return }
        timers[timer] = nil
        nowMs = max(nowMs, dueMs)
        if case .confirm(let key) = timer, let tile = Int(key.actionId.dropFirst()) { commanded[tile] = nil }
        feed(.timerFired(timer))
    }

    /// The MQTT messages a batch sends (`feed` adds what records that succeed carry out).
    func published(_ effects: [BridgeEffect]) -> [OutgoingMQTTMessage] {
        effects.compactMap { if case .publishMQTT(let message) = $0 { message } else { nil } }
    }

    @discardableResult
    mutating func feed(_ event: BridgeInputEvent) -> [BridgeEffect] {
        let effects = bridge.handle(BridgeInput(event, boardClockMs: nowMs))
        for message in published(effects) {
            if let tile = (0..<tileCount).first(where: { message.topic == "s/\($0)/set" }) {
                commanded[tile] = String(decoding: message.payload, as: UTF8.self) == "ON"
            }
        }
        for effect in effects {
            switch effect {
            case .sendPatch(let request):
                inFlight[request.slug] = request
                check(body: request.body)
            case .startTimer(let timer, let afterMs): timers[timer] = nowMs + afterMs
            case .cancelTimer(let timer): timers[timer] = nil
            default: break
            }
        }
        // Every record succeeds: its outcome is fed back, and what it carries out is this batch's.
        var all = effects
        for case .recordThenPublish(let release) in effects {
            if let carryOut = release.released(by: DurableRecord(syncedRecordOf: release.event)) { all += feed(carryOut) }
        }
        return all
    }

    /// The scene invariants on one PATCH body.
    func check(body: String) {
        guard let json = try? JSONValue.parse(body), case .array(let actions)? = json["content"]?["actions"] else {
            fuzzCheck(false, "a PATCH body that is not the content: \(body)")
            return
        }
        var shownOn: [String: Bool] = [:]
        var active: Set<Int> = []
        for action in actions {
            guard let id = action["id"]?.stringValue else { continue }
            if let on = action["on"]?.boolValue { shownOn[id] = on }
            if action["active"]?.boolValue == true, id.hasPrefix("scene"), let scene = Int(id.dropFirst(5)) { active.insert(scene) }
        }
        for scene in active {
            for (tile, state) in scenes[scene] {
                fuzzCheck(shownOn["t\(tile)"] == state, "scene\(scene) shown active with t\(tile) drawn \(shownOn["t\(tile)"].map(String.init) ?? "missing"): \(body)")
                fuzzCheck(reported[tile] == state && !unreachable.contains(tile),
                          "scene\(scene) shown active while t\(tile) last reported \(reported[tile].map(String.init) ?? "nothing"), "
                          + "\(unreachable.contains(tile) ? "unreachable" : "reachable"): \(body)")
            }
            for other in active where other > scene {
                let clash = scenes[scene].first { tile, state in scenes[other][tile].map { $0 != state } ?? false }
                fuzzCheck(clash == nil, "scene\(scene) and scene\(other) both shown active, though they set t\(clash?.key ?? 0) two ways: \(body)")
            }
        }
    }
}
