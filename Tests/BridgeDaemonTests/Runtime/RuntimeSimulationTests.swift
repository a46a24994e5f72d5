@_spi(DurableRecordStore) @testable import BridgeCore
@testable import BridgeDaemon
import Foundation
import Testing

/// Issue 23: the seeded simulation of the runtime's effect executor and the
/// core together, with a disk that fails at once, is slow (its record finishes
/// later, successfully or not), and crashes between a record and its publish
/// (a slow record in flight at a crash reaches the disk or not). Checked after
/// every step: no unsafe command goes out before its record is durable, and a
/// `repeat_safe: false` press never runs twice across restarts. A failure
/// names its seed; `RUNTIME_SIM_SEED=S swift test --filter RuntimeSimulation`
/// replays one.
@Suite("Seeded simulation of the runtime and the core")
struct RuntimeSimulationTests {
    static let seeds: [UInt64] = ProcessInfo.processInfo.environment["RUNTIME_SIM_SEED"].flatMap(UInt64.init).map { [$0] }
        ?? Array(1...16)
    static let stepsPerSeed = 2_000

    @Test(arguments: seeds)
    func noUnsafeCommandBeforeItsRecordAndNoneTwice(seed: UInt64) {
        let world = RuntimeSimWorld(seed: seed)
        for step in 0..<Self.stepsPerSeed {
            world.step()
            if let violation = world.violation {
                Issue.record("seed \(seed) (replay: RUNTIME_SIM_SEED=\(seed)), step \(step): \(violation)")
                return
            }
        }
        #expect(world.unsafeRunCount > 0, "seed \(seed): no unsafe press ran at all; the simulation tests nothing")
        #expect(world.failedRecordCount > 0 && world.slowRecordCount > 0, "seed \(seed): the disk never failed or was never slow")
    }
}

/// The disk under the simulated runtime: what is durable survives a crash;
/// a record is durable at once, fails at once, or finishes later.
final class SimulatedDisk: UnsafeEventRecorder, @unchecked Sendable {
    enum Mode { case durable, fails, slowThenDurable, slowThenFails }

    var durable: [UTF8Key: Int64] = [:]
    var inFlight: [(event: RememberedEvent, succeeds: Bool, finish: @Sendable (RecordOutcome) -> Void)] = []
    var nextMode: () -> Mode = { .durable }
    var failedCount = 0
    var slowCount = 0

    static func failure() -> FileError { FileError(path: "/sim/state/unsafe-event-ids.jsonl", operation: "write", errorNumber: ENOSPC) }

    func record(_ event: RememberedEvent, finish: @escaping @Sendable (RecordOutcome) -> Void) -> RecordOutcome? {
        let mode = nextMode()
        switch mode {
        case .durable:
            durable[UTF8Key(event.id)] = event.expiresAtMs
            return .success(DurableRecord(syncedRecordOf: event))
        case .fails:
            failedCount += 1
            return .failure(Self.failure())
        case .slowThenDurable, .slowThenFails:
            slowCount += 1
            inFlight.append((event, mode == .slowThenDurable, finish))
            return nil
        }
    }

    func forget(_ ids: [String]) throws(FileError) {
        for id in ids { durable[UTF8Key(id)] = nil }
    }

    /// The oldest slow record finishes: durable first (if it succeeds), then told.
    func finishOldest() {
        guard !inFlight.isEmpty else { return }
        let (event, succeeds, finish) = inFlight.removeFirst()
        if succeeds {
            durable[UTF8Key(event.id)] = event.expiresAtMs
            finish(.success(DurableRecord(syncedRecordOf: event)))
        } else {
            failedCount += 1
            finish(.failure(Self.failure()))
        }
    }

    /// The process dies: each record in flight reached the disk or not; none is told.
    func crash(using random: inout SplitMix64) {
        for (event, succeeds, _) in inFlight where succeeds && Bool.random(using: &random) {
            durable[UTF8Key(event.id)] = event.expiresAtMs
        }
        inFlight = []
    }
}

/// One bridge process (core + effect executor) at a time, its broker, phones,
/// service and disk; the disk and the ledger of unsafe runs outlive restarts.
final class RuntimeSimWorld: @unchecked Sendable {
    static let unsafeTopics: Set<String> = ["home/feeder/cmd", "home/valve/set"]
    static let unsafeActions: Set<String> = ["feed", "valve"]
    static let config: BridgeConfig = {
        var config = BridgeConfig()
        config.timing.settleWindowMs = 0
        config.widgets = [WidgetConfig(slug: "w", actions: [
            ActionConfig(id: "fan", label: "Fan", kind: .toggle,
                         stateSources: [StateSource(topic: "home/fan/state")], command: ToggleCommand(topic: "home/fan/set")),
            ActionConfig(id: "valve", label: "Valve", kind: .toggle,
                         stateSources: [StateSource(topic: "home/valve/state")], command: ToggleCommand(topic: "home/valve/set"),
                         repeatSafe: false),
            ActionConfig(id: "feed", label: "Feed", kind: .button,
                         publishes: [MQTTMessageSpec(topic: "home/feeder/cmd", payload: "dispense")], repeatSafe: false),
        ])]
        return config
    }()

    var random: SplitMix64
    let disk = SimulatedDisk()
    var bridge: Bridge
    var executor: EffectExecutor!
    /// What the executor handed back (PATCH answers, records finished later), in order.
    var mailbox: [RuntimeInput] = []
    var patchesInFlight: [@Sendable (PatchOutcome) -> Void] = []
    var boardClockMs: Int64 = 1_800_000_000_000
    var monotonicMs: Int64 = 1_000
    var pressCounter = 0
    var delivered: [(id: String, data: String, expiresAtMs: Int64)] = []
    /// Unsafe commands published since the last unsafe `pressCarriedOut` (its release's messages).
    var unattributedUnsafePublishes = 0
    /// Unsafe presses whose command went out, over every run.
    var unsafeRuns: [UTF8Key: Int] = [:]
    var violation: String?

    var unsafeRunCount: Int { unsafeRuns.count }
    var failedRecordCount: Int { disk.failedCount }
    var slowRecordCount: Int { disk.slowCount }

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        bridge = Bridge(config: Self.config, randomSeed: seed)
        disk.nextMode = { [unowned self] in
            switch Int.random(in: 0..<10, using: &random) {
            case 0: return .fails
            case 1, 2: return .slowThenDurable
            case 3: return .slowThenFails
            default: return .durable
            }
        }
        startProcess()
    }

    func startProcess() {
        mailbox = []
        patchesInFlight = []
        unattributedUnsafePublishes = 0
        executor = EffectExecutor(ports: ports(), recorder: disk, submit: { [unowned self] in mailbox.append($0) })
        let remembered = disk.durable.map { RememberedEvent(id: $0.key.text, expiresAtMs: $0.value) }
        bridge = Bridge(config: Self.config, rememberedUnsafeEvents: remembered, randomSeed: random.next())
        feed(.started)
        feed(.mqttConnected)
        for topic in ["home/fan/state", "home/valve/state"] { feed(.mqttMessage(topic: topic, payload: Array("OFF".utf8))) }
        feed(.eventStreamConnected)
        // A new stream: the service replays every press still unexpired.
        for press in delivered where press.expiresAtMs >= boardClockMs { deliver(press.id, press.data) }
    }

    func ports() -> RuntimePorts {
        RuntimePorts(
            publishMQTT: { [unowned self] message in published(message) },
            setSubscriptions: { _ in },
            sendPatch: { [unowned self] _, completion in patchesInFlight.append(completion) },
            unsafeEventRecorder: disk, reloadConfig: { nil }, log: { _, _ in },
            observe: { [unowned self] observation in observed(observation) })
    }

    func published(_ message: OutgoingMQTTMessage) {
        guard Self.unsafeTopics.contains(message.topic) else { return }
        unattributedUnsafePublishes += 1
        let durableNotRun = disk.durable.keys.contains { unsafeRuns[$0] == nil }
        if !durableNotRun { violation = "an unsafe command to \(message.topic) went out with no durable record of a press not yet run" }
    }

    func observed(_ observation: BridgeObservation) {
        guard case .pressCarriedOut(let eventId, let action, _) = observation, Self.unsafeActions.contains(action.actionId) else { return }
        let commands = unattributedUnsafePublishes
        unattributedUnsafePublishes = 0
        guard commands > 0 else { return }   // answered without a command (already in the state)
        let key = UTF8Key(eventId)
        if disk.durable[key] == nil { violation = "unsafe press \(eventId) was published before its record was durable" }
        unsafeRuns[key, default: 0] += 1
        if unsafeRuns[key, default: 0] > 1 { violation = "unsafe press \(eventId) ran twice" }
    }

    func input(_ event: BridgeInputEvent) -> BridgeInput {
        BridgeInput(event, boardClockMs: boardClockMs, serverClockOffsetMs: 0, serverClockUncertaintyMs: HTTPDate.uncertaintyMs)
    }

    func feed(_ event: BridgeInputEvent) {
        executor.feed(event, to: &bridge, input: input, nowMs: monotonicMs)
    }

    func step() {
        let advanceMs = Int64.random(in: 0...400, using: &random)
        boardClockMs += advanceMs
        monotonicMs += advanceMs
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<30: newPress()
        case 30..<40: redeliver()
        case 40..<52:
            disk.finishOldest()
            // Crashes with the finish not yet handled: durable, never published.
            if Int.random(in: 0..<4, using: &random) == 0 { crash() }
        case 52..<62: answerPatch()
        case 62..<72: fireTimer()
        case 72..<80: deviceMessage()
        case 80..<84: crash()
        case 84..<86: boardClockMs += 30_000; monotonicMs += 30_000
        default: break
        }
        drainMailbox()
        if unattributedUnsafePublishes != 0, violation == nil {
            violation = "\(unattributedUnsafePublishes) unsafe command(s) went out without their press being carried out"
        }
    }

    func newPress() {
        let choices = [("fan", "toggle"), ("valve", "toggle"), ("feed", "button"), ("feed", "button")]
        let (action, kind) = choices[Int.random(in: 0..<choices.count, using: &random)]
        pressCounter += 1
        let id = "evt_\(pressCounter)"
        let value = kind == "toggle" ? ",\"value\":\(Bool.random(using: &random))" : ""
        let expiresAtMs = boardClockMs + 5_000
        let data = "{\"id\":\"\(id)\",\"type\":\"widget.action.v1\",\"created_at\":\"\(LogTimestamp.format(epochMs: boardClockMs))\","
            + "\"expires_at\":\"\(LogTimestamp.format(epochMs: expiresAtMs))\",\"data\":{\"widget\":\"w\",\"action\":\"\(action)\","
            + "\"kind\":\"\(kind)\"\(value)}}"
        delivered.append((id, data, expiresAtMs))
        if delivered.count > 64 { delivered.removeFirst() }
        deliver(id, data)
    }

    func redeliver() {
        guard !delivered.isEmpty else { return }
        let press = delivered[Int.random(in: 0..<delivered.count, using: &random)]
        deliver(press.id, press.data)
    }

    func deliver(_ id: String, _ data: String) {
        feed(.streamEvent(StreamEvent(id: id, type: "widget.action.v1", data: data)))
    }

    func answerPatch() {
        guard !patchesInFlight.isEmpty else { return }
        let completion = patchesInFlight.removeFirst()
        completion(Int.random(in: 0..<5, using: &random) == 0 ? .status(500) : .status(200))
    }

    func fireTimer() {
        guard let nextMs = executor.timers.msUntilNext(nowMs: monotonicMs) else { return }
        monotonicMs += nextMs
        boardClockMs += nextMs
        for timer in executor.takeDueTimers(nowMs: monotonicMs) { feed(.timerFired(timer)) }
    }

    func deviceMessage() {
        let topic = ["home/fan/state", "home/valve/state"][Int.random(in: 0..<2, using: &random)]
        feed(.mqttMessage(topic: topic, payload: Array((Bool.random(using: &random) ? "ON" : "OFF").utf8)))
    }

    /// The process dies (between a record and its publish, when one is in
    /// flight or its finish is still in the mailbox), then starts again.
    func crash() {
        disk.crash(using: &random)
        startProcess()
    }

    func drainMailbox() {
        while !mailbox.isEmpty {
            switch mailbox.removeFirst() {
            case .core(let event): feed(event)
            case .unsafeRecordFinished(let ticket, let result):
                executor.finishRecord(ticket: ticket, result, to: &bridge, input: input, nowMs: monotonicMs)
            default: break
            }
        }
    }
}
