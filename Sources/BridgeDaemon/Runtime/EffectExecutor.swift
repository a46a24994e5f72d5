import BridgeCore

/// Performs the core's effects through the ports, in order, and feeds the core
/// what follows from them: the runtime's loop uses it with the real shells, the
/// seeded simulation with simulated ones, a simulated clock and a disk that
/// fails or is slow.
///
/// A press not safe to repeat (`recordThenPublish`) is recorded through the
/// `UnsafeEventRecorder` first, and its outcome fed back to the core: the
/// recorder's `DurableRecord` (`unsafeEventIdRecorded`; the core carries the
/// press out only then), or `unsafeEventIdsNotRecorded` (the core answers the
/// press with the true state, having committed nothing of it).
/// A record the recorder finishes later waits in `pendingReleases` (at most one
/// per unsafe id the core remembers, which it bounds) for `finishRecord`.
///
/// Used on the runtime's loop only.
final class EffectExecutor {
    /// What performing a batch did, for the runtime's measurements.
    struct Outcome {
        /// The presses carried out (`pressCarriedOut` performed), in order.
        var carriedOut: [String] = []
        /// Whether any MQTT message went out.
        var publishedMQTT = false

        mutating func add(_ other: Outcome) {
            carriedOut += other.carriedOut
            publishedMQTT = publishedMQTT || other.publishedMQTT
        }
    }

    private let ports: RuntimePorts
    private let recorder: any UnsafeEventRecorder
    /// Where what finishes off the loop is handed back (the runtime's inbox).
    private let submit: @Sendable (RuntimeInput) -> Void
    private(set) var timers = TimerTable()
    /// Keyed by bytes, as the broker keys topics.
    private var subscriptions: Set<UTF8Key> = []
    /// Releases whose record the recorder finishes later, by ticket.
    private(set) var pendingReleases: [UInt64: UnsafeRelease] = [:]
    private var nextTicket: UInt64 = 0
    /// A stop was asked for: the event stream, closed for good, stays closed.
    var isStopping = false

    init(ports: RuntimePorts, recorder: any UnsafeEventRecorder, submit: @escaping @Sendable (RuntimeInput) -> Void) {
        self.ports = ports
        self.recorder = recorder
        self.submit = submit
    }

    /// Hands one event to the core (with the clocks `input` adds) and performs
    /// what it decides; a record that failed is fed back to it at once.
    @discardableResult
    func feed(_ event: BridgeInputEvent, to bridge: inout Bridge, input: (BridgeInputEvent) -> BridgeInput, nowMs: Int64) -> Outcome {
        var recordOutcomes: [BridgeInputEvent] = []
        var outcome = perform(bridge.handle(input(event)), nowMs: nowMs, recordOutcomes: &recordOutcomes)
        // Each outcome's batch has no record in it (a recorded press needs none), so this ends.
        for recordOutcome in recordOutcomes { outcome.add(feed(recordOutcome, to: &bridge, input: input, nowMs: nowMs)) }
        return outcome
    }

    /// A record the recorder finished later: its release goes out now, or the
    /// core is told it failed.
    @discardableResult
    func finishRecord(ticket: UInt64, _ result: RecordOutcome, to bridge: inout Bridge,
                      input: (BridgeInputEvent) -> BridgeInput, nowMs: Int64) -> Outcome {
        guard let release = pendingReleases.removeValue(forKey: ticket) else { return Outcome() }
        return feed(recordOutcome(release, result), to: &bridge, input: input, nowMs: nowMs)
    }

    private func perform(_ effects: [BridgeEffect], nowMs: Int64, recordOutcomes: inout [BridgeInputEvent]) -> Outcome {
        var outcome = Outcome()
        for effect in effects {
            perform(effect, nowMs: nowMs, into: &outcome, recordOutcomes: &recordOutcomes)
        }
        return outcome
    }

    private func perform(_ effect: BridgeEffect, nowMs: Int64, into outcome: inout Outcome, recordOutcomes: inout [BridgeInputEvent]) {
        switch effect {
        case .publishMQTT(let message):
            outcome.publishedMQTT = true
            attempt("publish to \(message.topic)") { try ports.publishMQTT(message) }
        case .subscribe(let topics):
            subscriptions.formUnion(topics.map(UTF8Key.init))
            attempt("subscribe") { try ports.setSubscriptions(subscriptions.sorted().map(\.text)) }
        case .unsubscribe(let topics):
            subscriptions.subtract(topics.map(UTF8Key.init))
            attempt("unsubscribe") { try ports.setSubscriptions(subscriptions.sorted().map(\.text)) }
        case .sendPatch(let request):
            ports.sendPatch(request) { [submit] result in
                submit(.core(.patchCompleted(slug: request.slug, requestId: request.requestId, outcome: result)))
            }
        case .startTimer(let timer, let afterMs):
            timers.start(timer, afterMs: afterMs, nowMs: nowMs)
        case .cancelTimer(let timer):
            timers.cancel(timer)
        case .wakeForTimer(let timer):
            timers.wake(timer)
        case .recordThenPublish(let release):
            record(release, recordOutcomes: &recordOutcomes)
        case .forgetUnsafeEventIds(let ids):
            do { try recorder.forget(ids) } catch {
                ports.log(.warning, "cannot compact the event ids in the state directory (they are kept longer): \(error)")
            }
        case .log(let level, let message):
            ports.log(level, message)
        case .openEventStream:
            if !isStopping { ports.openEventStream() }
        case .observe(let observation):
            if case .pressCarriedOut(let eventId, _, _) = observation { outcome.carriedOut.append(eventId) }
            ports.observe(observation)
        }
    }

    private func record(_ release: UnsafeRelease, recordOutcomes: inout [BridgeInputEvent]) {
        let ticket = nextTicket
        nextTicket &+= 1
        let finish: @Sendable (RecordOutcome) -> Void = { [submit] result in submit(.unsafeRecordFinished(ticket: ticket, result)) }
        guard let result = recorder.record(release.event, finish: finish) else {
            pendingReleases[ticket] = release
            return
        }
        recordOutcomes.append(recordOutcome(release, result))
    }

    /// What the core is told of a record: durable (the press is carried out
    /// then), or failed (said here, and the press answered with the true state).
    private func recordOutcome(_ release: UnsafeRelease, _ result: RecordOutcome) -> BridgeInputEvent {
        switch result {
        case .success(let record):
            if let carryOut = release.released(by: record) { return carryOut }
            ports.log(.error, "the record of \(LogExcerpt.id(release.event.id)) came back for another id; not carrying it out")
        case .failure(let error):
            ports.log(.error, "cannot record event ids in the state directory: \(error)")
        }
        return .unsafeEventIdsNotRecorded([release.event.id])
    }

    /// Runs `body`; says what failed (`what` is built only then).
    private func attempt(_ what: @autoclosure () -> LogMessage, _ body: () throws -> Void) {
        do { try body() } catch { ports.log(.warning, "\(what()) failed: \(error)") }
    }
}

extension EffectExecutor {
    /// Removes and returns the timers due at `nowMs`, earliest first.
    func takeDueTimers(nowMs: Int64) -> [BridgeTimer] { timers.takeDue(nowMs: nowMs) }

    /// Removes and returns the quiet timers due at `nowMs` that did not wake the loop.
    func takeDueQuietTimers(nowMs: Int64) -> [BridgeTimer] { timers.takeDueQuiet(nowMs: nowMs) }
}
