@_spi(DurableRecordStore) @testable import BridgeCore

/// The product's central promise as a property (issue 19): a `repeat_safe:
/// false` action never runs twice for one event id, across simulated restarts
/// and crashes mid-batch, whatever the config allows — `dedupe_capacity` and
/// `dedupe_margin_ms` come from the input, even below what `check` accepts —
/// with the bridge's estimate of the server's clock off by up to its claimed
/// uncertainty (`HTTPDate.uncertaintyMs`), a hostile service redelivering any
/// earlier event at any time, replays of unexpired ones at each restart, failed
/// records, the board's clock jumping, and ids that differ only in Unicode form
/// (`evt_café0` in NFC and in NFD are two events, as they are to the service:
/// the world keys and compares ids by their UTF-8 bytes, as the product does).
/// Also checked: every delivery is read as the event delivered (its answer names
/// that id, byte for byte), and the memory stays within its bounds.
///
/// Input: two bytes of capacity, two of margin (× 100 ms), then operations of two
/// bytes each (an operation byte, an argument byte).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(start, count)
    var world = UnsafeOnceWorld(capacity: 16 + input.uint16() * 15, marginMs: Int64(input.uint16()) * 100)
    var steps = 0
    while steps < 400, input.hasMore {
        world.step(operation: input.byte(), argument: input.byte())
        steps += 1
    }
    world.restart()
    return 0
}

struct UnsafeOnceWorld {
    static let feederTopic = "home/feeder/cmd"
    var bridge: Bridge
    let config: BridgeConfig
    /// The server's true clock; the board's is `serverMs - boardBehindMs`.
    var serverMs: Int64 = 1_800_000_000_000
    var boardBehindMs: Int64 = 0
    var estimateErrorMs: Int64 = 0
    var persisted: [RememberedEvent] = []
    /// Every event the service made, by the UTF-8 bytes of its id (an id is one
    /// event, as the service's are; a `String` key would merge NFC and NFD twins).
    var events: [UTF8Key: (data: String, expiresAtMs: Int64)] = [:]
    var eventOrder: [String] = []
    var unsafeRuns: [UTF8Key: Int] = [:]
    var failNextRecord = false
    var restartSeed: UInt64 = 1

    init(capacity: Int, marginMs: Int64) {
        var config = BridgeConfig()
        config.timing.settleWindowMs = 0
        config.timing.dedupeCapacity = capacity
        config.timing.dedupeMarginMs = marginMs
        config.widgets = [WidgetConfig(slug: "w", actions: [
            ActionConfig(id: "feed", label: "Feed", kind: .button,
                         publishes: [MQTTMessageSpec(topic: Self.feederTopic, payload: "dispense")], repeatSafe: false),
            ActionConfig(id: "scene", label: "Scene", kind: .button,
                         publishes: [MQTTMessageSpec(topic: "home/scene/set", payload: "movie")]),
        ])]
        self.config = config
        bridge = Bridge(config: config, randomSeed: 1)
        connect()
    }

    var input: (BridgeInputEvent) -> BridgeInput {
        let board = serverMs - boardBehindMs, offset = boardBehindMs + estimateErrorMs
        return { BridgeInput($0, boardClockMs: board, serverClockOffsetMs: offset, serverClockUncertaintyMs: HTTPDate.uncertaintyMs) }
    }

    mutating func step(operation: UInt8, argument: UInt8) {
        switch operation % 8 {
        case 0, 1: press(action: operation % 8 == 0 ? "feed" : "scene", argument: argument)
        case 2: redeliver(argument)
        case 3: serverMs += Int64(argument) * 250
        case 4: restart()
        case 5: crash(argument)
        case 6: failNextRecord = true
        default: boardBehindMs = Int64(Int8(bitPattern: argument)) * 3_600_000   // the board's clock jumps; the estimate follows
        }
        fuzzCheck(bridge.dedupe.safeCount <= max(1, config.timing.dedupeCapacity), "more safe ids than the capacity")
        fuzzCheck(bridge.dedupe.unsafeCount <= DedupeMemory.maxUnsafeIds, "more unsafe ids than the bound")
    }

    /// A new press (or, for an id already made, its redelivery). The argument picks
    /// the id (32 of them, each in NFC and NFD) and how old the press is.
    mutating func press(action: String, argument: UInt8) {
        let number = Int(argument % 32)
        let id = argument & 0x20 != 0 ? "evt_cafe\u{301}\(number)" : "evt_caf\u{E9}\(number)"
        if events[UTF8Key(id)] == nil {
            let created = serverMs - Int64(argument >> 6) * 2_000
            let data = "{\"id\":\"\(id)\",\"type\":\"widget.action.v1\",\"created_at\":\"\(iso(created))\","
                + "\"expires_at\":\"\(iso(created + 5_000))\",\"data\":{\"widget\":\"w\",\"action\":\"\(action)\",\"kind\":\"button\"}}"
            events[UTF8Key(id)] = (data, created + 5_000)
            eventOrder.append(id)
        }
        deliver(id)
    }

    /// The service (hostile) delivers any earlier event again, expired or not.
    mutating func redeliver(_ argument: UInt8) {
        guard !eventOrder.isEmpty else { return }
        deliver(eventOrder[Int(argument) % eventOrder.count])
    }

    mutating func deliver(_ id: String, keepingEffects keep: Int? = nil) {
        guard let event = events[UTF8Key(id)] else { return }
        let effects = bridge.handle(input(.streamEvent(StreamEvent(id: id, type: "widget.action.v1", data: event.data))))
        checkReadAsItself(effects, id)
        perform(keep.map { Array(effects.prefix($0)) } ?? effects, for: id)
    }

    /// The bridge read the press as the event delivered: it says it received that
    /// id, byte for byte (an NFD delivery carrying its NFC twin's data would not).
    func checkReadAsItself(_ effects: [BridgeEffect], _ id: String) {
        let received = effects.compactMap { effect -> String? in
            if case .observe(.pressReceived(let eventId)) = effect { return eventId }
            return nil
        }
        fuzzCheck(received.count == 1, "one delivery of \(Array(id.utf8)) received \(received.count) times")
        fuzzCheck(received.allSatisfy { UTF8Key($0) == UTF8Key(id) },
                  "delivered \(Array(id.utf8)), read as \(received.map { Array($0.utf8) })")
    }

    /// Performs a batch as the runtime does: a record's outcome is fed back to
    /// the core (which carries the press out only once it is written).
    mutating func perform(_ effects: [BridgeEffect], for id: String) {
        var unrecorded: [String] = []
        for effect in effects {
            switch effect {
            case .recordThenPublish(let release):
                if failNextRecord {
                    failNextRecord = false
                    unrecorded.append(release.event.id)
                    continue
                }
                persisted.append(release.event)
                if let carryOut = release.released(by: DurableRecord(syncedRecordOf: release.event)) {
                    perform(bridge.handle(input(carryOut)), for: id)
                }
            case .forgetUnsafeEventIds(let ids):
                let forgotten = Set(ids.map(UTF8Key.init))
                persisted.removeAll { forgotten.contains(UTF8Key($0.id)) }
            case .publishMQTT(let message):
                if UTF8Key(message.topic) == UTF8Key(Self.feederTopic) {
                    unsafeRuns[UTF8Key(id), default: 0] += 1
                    fuzzCheck(unsafeRuns[UTF8Key(id), default: 0] <= 1, "the unsafe press \(id) ran twice")
                }
            default: break
            }
        }
        guard !unrecorded.isEmpty else { return }
        perform(bridge.handle(input(.unsafeEventIdsNotRecorded(unrecorded))), for: id)
    }

    /// A crash after the first `argument % 8` effects of a press's batch, then a restart.
    mutating func crash(_ argument: UInt8) {
        guard !eventOrder.isEmpty else { return }
        deliver(eventOrder[Int(argument) % eventOrder.count], keepingEffects: Int(argument % 8))
        restart()
    }

    /// A new process on what was persisted; a new stream (a new `Date` estimate)
    /// on which the service replays every press still unexpired on its clock.
    mutating func restart() {
        restartSeed &+= 1
        bridge = Bridge(config: config, rememberedUnsafeEvents: persisted, randomSeed: restartSeed)
        estimateErrorMs = Int64(restartSeed % 2_001) - HTTPDate.uncertaintyMs
        connect()
        for id in eventOrder where (events[UTF8Key(id)]?.expiresAtMs ?? .min) >= serverMs { deliver(id) }
    }

    mutating func connect() {
        for event in [BridgeInputEvent.started, .mqttConnected, .eventStreamConnected, .timerFired(.settle)] {
            _ = bridge.handle(input(event))
        }
    }

    func iso(_ ms: Int64) -> String {
        ISO8601Timestamp.text(epochMs: ms)
    }
}
