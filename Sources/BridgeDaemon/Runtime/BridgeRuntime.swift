import BridgeCore
import ShellSupport

/// Owns the pure `Bridge` and runs it on one loop thread: turns the `EventLoop`
/// (the MQTT client's socket is one of its sources, so its messages and the
/// core's publishes need no hand-off), takes what other threads queued, hands it
/// to the core with the clocks, performs the effects, fires timers. Nothing else
/// touches the core, so it needs no lock.
///
/// Time comes from one injected `BoardClock`, read once per wake (`now`): every
/// input of the wake, its timers and its expiry are judged on that reading.
/// `run()` is the real driver (it waits on the loop or the inbox); the seeded
/// simulation drives the same runtime a wake at a time (`start`, `nextWakeAtMs`,
/// `runOneWake(waits: false)`) with a simulated clock it moves itself.
public final class BridgeRuntime: @unchecked Sendable {
    private var bridge: Bridge
    private let ports: RuntimePorts
    /// What other threads hand over; the relay owns its inbox.
    private let relay: RuntimeRelay
    private var inbox: RuntimeInbox { relay.inbox }
    /// Performs the core's effects (timers, subscriptions, records before publishes).
    private let executor: EffectExecutor
    /// The server's clock minus the monotonic clock, from the last `Date` header:
    /// anchored to the monotonic clock so an NTP step of the board's wall clock
    /// while the stream stays up does not skew expiry.
    private var serverMinusMonotonicMs: Int64?
    /// When that `Date` was read, on the monotonic clock (its uncertainty grows with age).
    private var serverClockReadAtMs: Int64 = 0
    /// An implausible `Date` (more than a day off) was reported once.
    private var hasWarnedAboutImplausibleDate = false
    private var stopDeadlineMs: Int64?
    /// "inbox full", coalesced.
    private var dropReport = InboxDropReport()
    /// How often the loop wakes when nothing happens (the watchdog's pace).
    private let idleWakeMs: Int
    /// When the loop last turned (monotonic ms).
    private var lastTurnMs: Int64 = 0
    /// Where time is read: the board's clocks, or a simulation's.
    private let clock: BoardClock
    /// The clocks as read at the start of this wake (once): what the wake decides on.
    private var now: BoardTime
    /// The loop the runtime turns; nil: it waits on its inbox alone (tests of the
    /// runtime without sockets).
    private let loop: EventLoop?
    /// A batch has finished (the status endpoints answer 503 before).
    private var hasFinishedBatch = false
    /// Counts what the core was handed (and the first batch's end): the status
    /// view's render cache renders again only when it moved. Loop thread only.
    public private(set) var statusGeneration: UInt64 = 0

    /// `relay`: the one the shells were given (nil: a relay of its own, for a runtime driven by `submit`).
    public init(bridge: Bridge, ports: RuntimePorts, idleWakeMs: Int = -1, loop: EventLoop? = nil, relay: RuntimeRelay? = nil,
                clock: BoardClock = .system) {
        self.bridge = bridge
        self.ports = ports
        let relay = relay ?? RuntimeRelay(loop: loop)
        self.relay = relay
        // Through the relay, which wakes the loop: a record finishes on the syncing thread.
        executor = EffectExecutor(ports: ports, recorder: ports.unsafeEventRecorder, submit: { relay.submit($0) })
        self.idleWakeMs = idleWakeMs
        self.loop = loop
        self.clock = clock
        now = clock.now()
    }

    /// Server clock minus the board's wall clock, at this wake (0 before any `Date`).
    private var serverClockOffsetMs: Int64 {
        serverClockOffsetMs(monotonicMs: now.monotonicMs, wallClockMs: now.wallClockEpochMs)
    }

    /// The same from clocks already read.
    private func serverClockOffsetMs(monotonicMs: Int64, wallClockMs: Int64) -> Int64 {
        guard let serverMinusMonotonicMs else { return 0 }
        return monotonicMs.addingSaturating(serverMinusMonotonicMs).subtractingSaturating(wallClockMs)
    }

    /// How far `serverClockOffsetMs` may be off at `monotonicMs` (`Int64.max` before any `Date`).
    private func serverClockUncertaintyMs(monotonicMs: Int64) -> Int64 {
        guard serverMinusMonotonicMs != nil else { return Int64.max }
        return HTTPDate.uncertaintyMs(ageMs: monotonicMs - serverClockReadAtMs)
    }

    /// Takes the server's clock from a stream's `Date` header, unless it is more
    /// than a day from the board's (then it is ignored, and said once).
    private func readServerClock(dateHeader: String, receivedAtMonotonicMs: Int64) {
        guard let serverMinusReceiptMs = HTTPDate.serverClockOffsetMs(dateHeader: dateHeader, receivedAtMs: receivedAtMonotonicMs)
        else { return }
        let offsetMs = now.monotonicMs.addingSaturating(serverMinusReceiptMs).subtractingSaturating(now.wallClockEpochMs)
        guard HTTPDate.isPlausible(offsetMs: offsetMs) else {
            if !hasWarnedAboutImplausibleDate {
                hasWarnedAboutImplausibleDate = true
                let hours = offsetMs / 3_600_000
                let direction = offsetMs > 0 ? "ahead of" : "behind"
                let judgedOn = serverMinusMonotonicMs == nil
                    ? "the board's clock (no id of a press not safe to repeat is forgotten by time meanwhile)"
                    : "the last believable Date"
                ports.log(.warning, "the service's clock (Date: \(LogExcerpt.text(dateHeader))) is \(hours.magnitude) hours "
                    + "\(direction) this board's: more than a day, so it is ignored and expiry judged on \(judgedOn); "
                    + "check the board's clock (NTP); said once")
            }
            return
        }
        serverMinusMonotonicMs = serverMinusReceiptMs
        serverClockReadAtMs = receivedAtMonotonicMs
    }

    /// Queues an input from any thread; false when the inbox is full.
    @discardableResult
    public func submit(_ input: RuntimeInput) -> Bool { relay.submit(input) }

    /// Queues an MQTT message from any thread (coalesced per topic).
    public func submitMQTTMessage(topic: String, payload: [UInt8]) {
        relay.submitMQTTMessage(topic: topic, payload: payload)
    }

    /// Runs the loop on the calling thread until a stop has finished: the real
    /// driver of `runOneWake`.
    public func run() {
        start()
        while runOneWake() {}
    }

    /// Tells the core it started (once, before the first wake).
    public func start() {
        now = clock.now()
        feed(.started)
    }

    /// One wake: waits for work (no later than `nextWakeAtMs`; with `waits`
    /// false it takes only what is queued, as a simulation's driver does after
    /// moving its clock to the wake), reads the clock once, hands the batch to
    /// the core (other threads' hand-overs, then the loop's own inputs, each in
    /// arrival order: `BoundedInbox`) and fires the timers due. Returns false once
    /// a stop has finished (the runtime is done).
    @discardableResult
    public func runOneWake(waits: Bool = true) -> Bool {
        var batch = takeBatch(waits: waits)
        now = clock.now()
        ports.beforeBatch()
        if let report = dropReport.note(droppedCount: batch.droppedCount, nowMs: now.monotonicMs) {
            ports.log(.warning, report)
        }
        // A quiet timer past its deadline ended before this wake's inputs came.
        if !batch.items.isEmpty {
            for timer in executor.takeDueQuietTimers(nowMs: now.monotonicMs) { feed(.timerFired(timer)) }
        }
        for item in batch.items {
            switch item {
            case .input(let input): handle(input)
            case .mqttMessage(let topic, let payload): feed(.mqttMessage(topic: topic, payload: payload))
            }
            serviceSocketsIfDue()
        }
        inbox.recycle(&batch.items)
        for timer in executor.takeDueTimers(nowMs: now.monotonicMs) { feed(.timerFired(timer)) }
        if !hasFinishedBatch { statusGeneration &+= 1 }
        hasFinishedBatch = true
        ports.afterBatch(Self.summary(of: &bridge, serverClockOffsetMs: serverClockOffsetMs))
        return !isFinished
    }

    /// During a long batch (hundreds of presses, each recorded durably), the sockets
    /// are looked at every `socketServiceIntervalMs`: acknowledgements read (or
    /// libmosquitto holds commands past its in-flight limit), keepalives kept.
    /// (The clock is read here, not `now`: what counts is how long the batch has run.)
    private func serviceSocketsIfDue() {
        guard let loop else { return }
        guard clock.monotonicMs() - lastTurnMs >= Self.socketServiceIntervalMs else { return }
        loop.turn(timeoutMs: 0)
        lastTurnMs = clock.monotonicMs()
    }

    static let socketServiceIntervalMs: Int64 = 10

    /// Turns the loop (its sources' events land in the inbox), then takes what is
    /// queued; waits no longer than the next timer. Work queued during the last
    /// batch (a PATCH answered at once, a record finished) is taken without a
    /// turn, unless the sockets were last looked at `socketServiceIntervalMs` ago:
    /// a turn without waiting is a system call that mostly finds nothing.
    private func takeBatch(waits: Bool) -> RuntimeInbox.Batch {
        guard let loop else { return inbox.take(timeoutMs: waits ? msUntilNextWake() : 0) }
        if !inbox.isEmpty, clock.monotonicMs() - lastTurnMs < Self.socketServiceIntervalMs {
            return inbox.take(timeoutMs: 0)
        }
        loop.turn(timeoutMs: waits && inbox.isEmpty ? msUntilNextWake() : 0)
        lastTurnMs = clock.monotonicMs()
        return inbox.take(timeoutMs: 0)
    }

    /// The wait until `nextWakeAtMs` on the clock as it is now (-1: none, wait for work).
    private func msUntilNextWake() -> Int {
        guard let atMs = nextWakeAtMs else { return -1 }
        return Int(clamping: max(0, atMs.subtractingSaturating(clock.monotonicMs())))
    }

    /// What the status view sees, built now: on the loop's thread (where the status
    /// server answers) between batches, so a GET sees the latest state; nil before
    /// the first batch has finished, and on any other thread (the core is the loop's).
    public func statusSnapshot() -> BridgeSnapshot? {
        guard let loop, loop.isOnLoopThread, hasFinishedBatch else { return nil }
        return bridge.snapshot(serverClockOffsetMs: serverClockOffsetMs)
    }

    /// What the watchers get after each batch: read from the core's flags, no
    /// snapshot built. The core is taken `inout` only to be read in place: a
    /// getter of BridgeCore called on the stored `bridge` copied the whole
    /// `Bridge` first (retaining every table it holds, ~13 k instructions a press).
    private static func summary(of bridge: inout Bridge, serverClockOffsetMs: Int64) -> BatchSummary {
        BatchSummary(isMQTTConnected: bridge.isMQTTConnected, isEventStreamConnected: bridge.isEventStreamConnected,
                     tokenRefusedPhrase: bridge.tokenRefusedPhrase,
                     actionCount: bridge.config.widgets.reduce(0) { $0 + $1.actions.count },
                     serverClockOffsetMs: serverClockOffsetMs)
    }

    private var isFinished: Bool {
        guard let stopDeadlineMs else { return false }
        let anyInFlight = bridge.config.widgets.contains { bridge.isPatchInFlight(slug: $0.slug) }
            || !executor.pendingReleases.isEmpty
        return !anyInFlight || now.monotonicMs >= stopDeadlineMs
    }

    /// When (monotonic ms) the runtime must wake even if no work comes: the
    /// earliest of its timers, the stop's deadline, the idle wake and the drop
    /// report (nil: none, it waits for work). Measured from this wake's `now`.
    public var nextWakeAtMs: Int64? {
        let nowMs = now.monotonicMs
        var shortestMs: Int64?
        func consider(_ waitMs: Int64?) {
            guard let waitMs else { return }
            shortestMs = min(shortestMs ?? waitMs, waitMs)
        }
        consider(executor.timers.msUntilNext(nowMs: nowMs))
        consider(stopDeadlineMs.map { max(0, $0 - nowMs) })
        consider(idleWakeMs >= 0 ? Int64(idleWakeMs) : nil)
        consider(dropReport.msUntilDue(nowMs: nowMs))
        return shortestMs.map { nowMs.addingSaturating($0) }
    }

    private func handle(_ input: RuntimeInput) {
        switch input {
        case .core(let event):
            if stopDeadlineMs != nil, case .streamEvent = event { return }
            feed(event)
        case .streamEvent(let event, let receivedAtUs):
            guard stopDeadlineMs == nil else { return }
            let outcome = feed(.streamEvent(event))
            // Only a press whose command went out reached MQTT; one answered
            // without a command (device offline, already in the state) did not.
            for eventId in outcome.carriedOut where outcome.publishedMQTT {
                // A measurement, not a decision: the clock as it is now (the press's own batch counts).
                ports.pressReachedMQTT(eventId, clock.monotonicUs() - receivedAtUs)
            }
        case .unsafeRecordFinished(let ticket, let result):
            statusGeneration &+= 1
            executor.finishRecord(ticket: ticket, result, to: &bridge, input: makeInput, nowMs: now.monotonicMs)
        case .eventStreamConnected(let dateHeader, let receivedAtMonotonicMs):
            if let dateHeader { readServerClock(dateHeader: dateHeader, receivedAtMonotonicMs: receivedAtMonotonicMs) }
            feed(.eventStreamConnected)
        case .reloadRequested:
            if let config = ports.reloadConfig() { feed(.configReloaded(config)) }
        case .stopRequested:
            if stopDeadlineMs == nil { stopDeadlineMs = now.monotonicMs + bridge.config.timing.stopGraceMs }
            executor.isStopping = true
        }
    }

    /// Hands one event to the core and performs what it decides.
    @discardableResult
    private func feed(_ event: BridgeInputEvent) -> EffectExecutor.Outcome {
        statusGeneration &+= 1
        return executor.feed(event, to: &bridge, input: makeInput, nowMs: now.monotonicMs)
    }

    /// An event for the core with this wake's clocks.
    private func makeInput(_ event: BridgeInputEvent) -> BridgeInput {
        BridgeInput(event, boardClockMs: now.wallClockEpochMs,
                    serverClockOffsetMs: serverClockOffsetMs(monotonicMs: now.monotonicMs, wallClockMs: now.wallClockEpochMs),
                    serverClockUncertaintyMs: serverClockUncertaintyMs(monotonicMs: now.monotonicMs))
    }
}
