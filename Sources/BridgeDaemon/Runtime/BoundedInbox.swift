import BridgeCore
import ShellSupport
import Synchronization

/// The one bounded inbox between the shells' callbacks and a loop (the
/// daemon's, `watch`'s, `discover`'s), handed out in batches. Every shell
/// runs on the loop's own thread, which is also the thread that takes: what it
/// queues itself (`fromTakingThread`: a press, its echo, its PATCH's answer) waits
/// in a lane of its own, without a lock. The lock is for the threads that hand
/// the loop something (the id store's syncing thread, tests), and a turn with
/// nothing handed over takes none (`queuedCount`). A batch holds what other
/// threads handed over, then what the taking thread queued, each in arrival
/// order; each lane is bounded as below. One thread takes (`take`, `recycle`,
/// `isEmpty`). Every MQTT
/// message is kept while there is room (several actions may read different
/// fields of one topic's partial payloads); when the MQTT share is full, by
/// count or by bytes, a new message replaces the oldest queued one of its topic
/// (only the latest state matters then), or is dropped and counted. Other data
/// inputs (stream events, each up to 64 KiB) are bounded by count and by bytes
/// too. Essential inputs (connects, disconnects, reload, stop, PATCH answers)
/// are never dropped.
final class BoundedInbox<Input: InboxInput>: @unchecked Sendable {
    /// One thing to handle, in order.
    enum Item {
        case input(Input)
        case mqttMessage(topic: String, payload: [UInt8])
    }

    /// What one lane holds, and its bounds' counts.
    struct Contents {
        var items: [Item] = []
        var inputCount = 0
        var inputBytes = 0
        var mqttCount = 0
        var mqttBytes = 0
        var droppedCount = 0

        var isEmpty: Bool { items.isEmpty && droppedCount == 0 }
    }

    /// One drained batch: other threads' hand-overs, then the taking thread's own, each in arrival order.
    struct Batch {
        var items: [Item]
        var droppedCount: Int
    }

    let inputCapacity: Int
    /// Bound on the queued data inputs (stream events), in bytes.
    let inputByteCapacity: Int
    let mqttCapacity: Int
    /// Bound on the queued MQTT topics and payloads, in bytes.
    let mqttByteCapacity: Int
    /// What other threads hand over.
    private let lock = ConditionLock(Contents())
    /// Items and drops queued, kept with `lock`'s contents (changed under it): read
    /// without the lock, zero means nothing to take (a producer on another thread
    /// wakes the loop after pushing, so the next look finds it).
    private let queuedCount = Atomic<Int>(0)
    /// The taking thread's own: what it queued itself (no lock), and a handled
    /// batch's storage, emptied, for the next one (`recycle`).
    private let taker = ThreadOwnedState(TakerState())
    /// The thread that queues in the own lane (the first to do so), checked in debug
    /// builds: the own lane has no lock, so only the taking thread may touch it.
    private let ownLaneThread = OwningThread()

    private struct TakerState {
        var own = Contents()
        var spare: [Item] = []
    }

    init(inputCapacity: Int = 1_024, inputByteCapacity: Int = 4 * 1_024 * 1_024,
         mqttCapacity: Int = 16_384, mqttByteCapacity: Int = MQTTSettings.inboxMQTTByteBudget) {
        self.inputCapacity = inputCapacity
        self.inputByteCapacity = inputByteCapacity
        self.mqttCapacity = mqttCapacity
        self.mqttByteCapacity = mqttByteCapacity
    }

    /// Queues an input; false (and counted) when the inbox is full. Control
    /// inputs are always taken: losing a stop or a PATCH answer would hang the
    /// daemon or its widget, losing a connect or disconnect would leave the core
    /// believing the wrong thing (their number is bounded by their senders).
    /// `fromTakingThread`: the caller is the thread that takes (no lock).
    @discardableResult
    func push(_ input: Input, fromTakingThread: Bool = false) -> Bool {
        guard !fromTakingThread else {
            assert(ownLaneThread.claim(), "the inbox's own lane is the taking thread's alone")
            return add(input, to: &taker.pointer.pointee.own)
        }
        return lock.withLock { contents in
            defer { queuedCount.store(contents.items.count + contents.droppedCount, ordering: .releasing) }
            return add(input, to: &contents)
        }
    }

    /// Queues an MQTT message; when the MQTT share is full it replaces the
    /// oldest queued message of the same topic, else it is dropped (false).
    /// `fromTakingThread`: the caller is the thread that takes (no lock).
    @discardableResult
    func pushMQTT(topic: String, payload: [UInt8], fromTakingThread: Bool = false) -> Bool {
        guard !fromTakingThread else {
            assert(ownLaneThread.claim(), "the inbox's own lane is the taking thread's alone")
            return addMQTT(topic: topic, payload: payload, to: &taker.pointer.pointee.own)
        }
        return lock.withLock { contents in
            defer { queuedCount.store(contents.items.count + contents.droppedCount, ordering: .releasing) }
            return addMQTT(topic: topic, payload: payload, to: &contents)
        }
    }

    private func add(_ input: Input, to contents: inout Contents) -> Bool {
        let isEssential = input.isEssential
        let bytes = isEssential ? 0 : input.inboxByteCount
        let hasRoom = contents.inputCount < inputCapacity && contents.inputBytes + bytes <= inputByteCapacity
        guard hasRoom || isEssential else {
            contents.droppedCount += 1
            return false
        }
        // A reload or stop already queued covers another one: stays bounded.
        if isEssential, input.isIdempotent, contents.items.contains(where: { item in
            if case .input(let queued) = item { return queued.isSameRequest(as: input) }
            return false
        }) {
            return true
        }
        contents.items.append(.input(input))
        contents.inputCount += 1
        contents.inputBytes += bytes
        return true
    }

    private func addMQTT(topic: String, payload: [UInt8], to contents: inout Contents) -> Bool {
        let bytes = Self.byteCount(topic: topic, payload: payload)
        if contents.mqttCount >= mqttCapacity || contents.mqttBytes + bytes > mqttByteCapacity {
            guard let older = contents.items.firstIndex(where: { item in
                if case .mqttMessage(let queuedTopic, _) = item { return queuedTopic.utf8.elementsEqual(topic.utf8) }
                return false
            }), case .mqttMessage(_, let olderPayload) = contents.items[older],
                  contents.mqttBytes - Self.byteCount(topic: topic, payload: olderPayload) + bytes <= mqttByteCapacity
            else {
                contents.droppedCount += 1
                return false
            }
            contents.items.remove(at: older)
            contents.mqttCount -= 1
            contents.mqttBytes -= Self.byteCount(topic: topic, payload: olderPayload)
        }
        contents.items.append(.mqttMessage(topic: topic, payload: payload))
        contents.mqttCount += 1
        contents.mqttBytes += bytes
        return true
    }

    /// What one queued message costs: its topic and payload bytes.
    static func byteCount(topic: String, payload: [UInt8]) -> Int {
        topic.utf8.count + payload.count
    }

    /// Whether nothing is queued (no lock; the taking thread).
    var isEmpty: Bool {
        taker.pointer.pointee.own.isEmpty && queuedCount.load(ordering: .acquiring) == 0
    }

    /// Waits up to `timeoutMs` (negative: no limit) for something, then takes all of
    /// it; takes no lock when nothing was handed over and it need not wait (what the
    /// taking thread queued itself is there: no wait).
    func take(timeoutMs: Int) -> Batch {
        let taker = self.taker.pointer
        assert(taker.pointee.own.isEmpty || ownLaneThread.isCurrent, "the own lane is taken by the thread that queued it")
        let waitMs = taker.pointee.own.isEmpty ? timeoutMs : 0
        var batch = waitMs == 0 && queuedCount.load(ordering: .acquiring) == 0
            ? Batch(items: [], droppedCount: 0) : takeHandedOver(timeoutMs: waitMs)
        guard !taker.pointee.own.isEmpty else { return batch }
        if batch.items.isEmpty {
            // The own lane's items are the batch; the spare storage takes the next ones.
            swap(&batch.items, &taker.pointee.own.items)
            swap(&taker.pointee.own.items, &taker.pointee.spare)
        } else {
            batch.items += taker.pointee.own.items
            taker.pointee.own.items.removeAll(keepingCapacity: true)
        }
        batch.droppedCount += taker.pointee.own.droppedCount
        taker.pointee.own = Contents(items: taker.pointee.own.items)
        return batch
    }

    /// Waits up to `timeoutMs` for what other threads hand over, then takes it.
    private func takeHandedOver(timeoutMs: Int) -> Batch {
        var storage: [Item] = []
        swap(&storage, &taker.pointer.pointee.spare)
        let (batch, unused) = lock.wait(timeoutMs: timeoutMs, until: { !$0.items.isEmpty }) { contents in
            let batch = Batch(items: contents.items, droppedCount: contents.droppedCount)
            guard !contents.isEmpty else { return (batch, storage) }
            contents = Contents(items: storage)
            queuedCount.store(0, ordering: .releasing)
            return (batch, [])
        }
        if taker.pointer.pointee.spare.capacity == 0 { taker.pointer.pointee.spare = unused }
        return batch
    }

    /// Most items a recycled batch's storage may hold (a flood's large one is let go).
    static var maxRecycledItems: Int { 64 }

    /// Hands back a handled batch's items (the caller's copy is emptied): their storage
    /// takes the next batch, so a wake makes no array of its own.
    func recycle(_ items: inout [Item]) {
        guard items.capacity <= Self.maxRecycledItems else { return items = [] }
        items.removeAll(keepingCapacity: true)
        if taker.pointer.pointee.spare.capacity == 0 { swap(&taker.pointer.pointee.spare, &items) }
    }
}
