import BridgeCore
import MQTTShell
import ShellSupport

/// The loop of `watch` and `discover`: one MQTT client on an `EventLoop` the
/// caller's thread turns (as the daemon's does: no thread of its own), whose events
/// go through the one bounded inbox (the daemon's, bounded by count and by bytes, so
/// a flood of large retained messages waits in TCP, not in memory) and are handed,
/// in order, to the caller until a deadline or until the caller says stop.
final class MQTTListener: @unchecked Sendable {
    /// What the loop hands its caller.
    enum Event {
        /// A connection event of the MQTT shell (never `.message`).
        case mqtt(MQTTEvent)
        /// A message on a subscribed topic.
        case message(topic: String, payload: [UInt8])
        /// This many messages did not fit the inbox and were dropped.
        case dropped(count: Int)
        /// SIGINT or SIGTERM (see `requestStop`).
        case stopRequested
    }

    /// The MQTT client; publish through it from `run`'s handler.
    let client: MQTTClient
    private let inbox: BoundedInbox<ListenerInput>
    /// The loop `run` turns, once started (the caller's thread only).
    private var loop: EventLoop?

    /// `maxQueuedMessages` and `maxQueuedBytes` bound what waits for the loop.
    init(settings: MQTTShell.MQTTSettings, maxQueuedMessages: Int, maxQueuedBytes: Int) {
        let inbox = BoundedInbox<ListenerInput>(mqttCapacity: maxQueuedMessages, mqttByteCapacity: maxQueuedBytes)
        self.inbox = inbox
        client = MQTTClient(settings: settings) { event in Self.queue(event, in: inbox) }
    }

    /// Takes one of the client's events as the client's handler does (tests feed the inbox so).
    func receive(_ event: MQTTEvent) {
        Self.queue(event, in: inbox)
    }

    private static func queue(_ event: MQTTEvent, in inbox: BoundedInbox<ListenerInput>) {
        if case .message(let message) = event {
            inbox.pushMQTT(topic: message.topic, payload: message.payload)
        } else {
            inbox.push(.mqtt(event))
        }
    }

    /// Subscribes to `topics` and starts connecting at `run`'s first turn of the loop;
    /// `companions` are driven on that loop too (`watch`'s signals). Call `run` and
    /// `stop` on this thread.
    func start<Topics: Sequence>(subscribingTo topics: Topics, alongside companions: [LoopSource] = []) throws
    where Topics.Element == String {
        let newLoop = try EventLoop()
        try client.setSubscriptions(topics)
        try client.start(on: newLoop)
        companions.forEach(newLoop.add)
        loop = newLoop
    }

    /// Makes `run` hand over `.stopRequested` (from a signal source on the loop, or any thread).
    func requestStop() {
        inbox.push(.stopRequested)
    }

    /// What `run` still reads once its deadline has passed, so that a caller whose
    /// handling takes long (discover's translation, on this thread) does not leave
    /// behind what the broker has already sent: read and handed over until the
    /// socket has brought nothing for `quietMs` of waiting, or `maxBytes` of
    /// messages were handed over, or `maxMs` has passed (a broker that keeps
    /// sending cannot keep it).
    struct DeadlineDrain {
        var quietMs: Int64
        var maxBytes: Int
        var maxMs: Int64
    }

    /// Turns the loop and hands every event to `handle`, in order, until
    /// `deadlineMs()` (monotonic, asked again after each batch; nil: none) has
    /// passed — what was queued by then is still handed over, and with `drain`
    /// what the socket brings next, within its bounds — or `handle` returns
    /// false. (Not started: hands over what was queued, waiting on the inbox.)
    func run(deadlineMs: () -> Int64?, drain: DeadlineDrain? = nil, handle: (Event) -> Bool) {
        while true {
            let deadline = deadlineMs()
            let remainingMs = deadline.map { $0 - MonotonicClock.nowMs() }
            let waitMs = remainingMs.map { Int(clamping: max(0, $0)) } ?? -1
            var batch = inbox.take(timeoutMs: 0)
            if batch.items.isEmpty, batch.droppedCount == 0, waitMs != 0 {
                if let loop {
                    loop.turn(timeoutMs: waitMs)
                    batch = inbox.take(timeoutMs: 0)
                } else {
                    batch = inbox.take(timeoutMs: waitMs)
                }
            }
            guard deliver(batch, to: handle) else { return }
            if let remainingMs, remainingMs <= 0, deadlineMs() == deadline {
                if let drain, let loop, client.isConnected { read(drain, on: loop, handle: handle) }
                return
            }
        }
    }

    /// Past the deadline: turns the loop while the socket brings something, and hands
    /// over what it brings, within `limits`. Quiet is counted in waiting only: the
    /// time `handle` takes is not the broker's.
    private func read(_ limits: DeadlineDrain, on loop: EventLoop, handle: (Event) -> Bool) {
        let startMs = MonotonicClock.nowMs()
        var quietSinceMs = startMs
        var readPasses = client.socketReadPasses
        var handedBytes = 0
        while handedBytes < limits.maxBytes {
            let waitMs = min(quietSinceMs + limits.quietMs, startMs + limits.maxMs) - MonotonicClock.nowMs()
            guard waitMs > 0 else { return }
            var batch = inbox.take(timeoutMs: 0)
            if batch.items.isEmpty, batch.droppedCount == 0 {
                loop.turn(timeoutMs: Int(waitMs))
                batch = inbox.take(timeoutMs: 0)
            }
            let passes = client.socketReadPasses
            let broughtSomething = passes != readPasses || !batch.items.isEmpty || batch.droppedCount > 0
            readPasses = passes
            handedBytes += batch.items.reduce(0) { bytes, item in
                guard case .mqttMessage(let topic, let payload) = item else { return bytes }
                return bytes + BoundedInbox<ListenerInput>.byteCount(topic: topic, payload: payload)
            }
            guard deliver(batch, to: handle) else { return }
            if broughtSomething { quietSinceMs = MonotonicClock.nowMs() }
        }
    }

    /// Stops the client (turning the loop until its goodbye is done).
    func stop() {
        client.stop()
    }

    private func deliver(_ batch: BoundedInbox<ListenerInput>.Batch, to handle: (Event) -> Bool) -> Bool {
        if batch.droppedCount > 0, !handle(.dropped(count: batch.droppedCount)) { return false }
        for item in batch.items {
            let event: Event
            switch item {
            case .mqttMessage(let topic, let payload): event = .message(topic: topic, payload: payload)
            case .input(.mqtt(let mqttEvent)): event = .mqtt(mqttEvent)
            case .input(.stopRequested): event = .stopRequested
            }
            guard handle(event) else { return false }
        }
        return true
    }
}
