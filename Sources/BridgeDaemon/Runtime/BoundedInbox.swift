import BridgeCore
import ShellSupport
import Synchronization

/// The one bounded inbox between the shells' callbacks and a loop (the
/// daemon's, `watch`'s, `discover`'s), handed out in arrival order. Every shell
/// runs on the loop's own thread; the lock is for the threads that hand the loop
/// something (the id store's syncing thread), and a turn with nothing queued takes
/// none (`queuedCount`). One thread takes (`take`, `recycle`). Every MQTT
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

    struct Contents {
        var items: [Item] = []
        var inputCount = 0
        var inputBytes = 0
        var mqttCount = 0
        var mqttBytes = 0
        var droppedCount = 0
    }

    /// One drained batch, in arrival order.
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
    private let lock = ConditionLock(Contents())
    /// Items and drops queued, kept with `lock`'s contents (changed under it): read
    /// without the lock, zero means nothing to take (a producer on another thread
    /// wakes the loop after pushing, so the next look finds it).
    private let queuedCount = Atomic<Int>(0)
    /// A handled batch's storage, emptied, for the next one (`recycle`; the taking
    /// thread only).
    private var spare: [Item] = []

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
    @discardableResult
    func push(_ input: Input) -> Bool {
        lock.withLock { contents in
            let isEssential = input.isEssential
            let bytes = isEssential ? 0 : input.inboxByteCount
            let hasRoom = contents.inputCount < inputCapacity && contents.inputBytes + bytes <= inputByteCapacity
            guard hasRoom || isEssential else {
                contents.droppedCount += 1
                queuedCount.add(1, ordering: .releasing)
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
            queuedCount.add(1, ordering: .releasing)
            return true
        }
    }

    /// Queues an MQTT message; when the MQTT share is full it replaces the
    /// oldest queued message of the same topic, else it is dropped (false).
    @discardableResult
    func pushMQTT(topic: String, payload: [UInt8]) -> Bool {
        let bytes = Self.byteCount(topic: topic, payload: payload)
        return lock.withLock { contents in
            if contents.mqttCount >= mqttCapacity || contents.mqttBytes + bytes > mqttByteCapacity {
                guard let older = contents.items.firstIndex(where: { item in
                    if case .mqttMessage(let queuedTopic, _) = item { return queuedTopic.utf8.elementsEqual(topic.utf8) }
                    return false
                }), case .mqttMessage(_, let olderPayload) = contents.items[older],
                      contents.mqttBytes - Self.byteCount(topic: topic, payload: olderPayload) + bytes <= mqttByteCapacity
                else {
                    contents.droppedCount += 1
                    queuedCount.add(1, ordering: .releasing)
                    return false
                }
                contents.items.remove(at: older)
                contents.mqttCount -= 1
                contents.mqttBytes -= Self.byteCount(topic: topic, payload: olderPayload)
            }
            contents.items.append(.mqttMessage(topic: topic, payload: payload))
            contents.mqttCount += 1
            contents.mqttBytes += bytes
            queuedCount.add(1, ordering: .releasing)
            return true
        }
    }

    /// What one queued message costs: its topic and payload bytes.
    static func byteCount(topic: String, payload: [UInt8]) -> Int {
        topic.utf8.count + payload.count
    }

    /// Whether nothing is queued (no lock).
    var isEmpty: Bool {
        queuedCount.load(ordering: .acquiring) == 0
    }

    /// Waits up to `timeoutMs` (negative: no limit) for something, then takes all of
    /// it; with nothing queued and no wait, takes no lock.
    func take(timeoutMs: Int) -> Batch {
        if timeoutMs == 0, isEmpty { return Batch(items: [], droppedCount: 0) }
        var storage: [Item] = []
        swap(&storage, &spare)
        let (batch, unused) = lock.wait(timeoutMs: timeoutMs, until: { !$0.items.isEmpty }) { contents in
            let batch = Batch(items: contents.items, droppedCount: contents.droppedCount)
            guard !contents.items.isEmpty || contents.droppedCount > 0 else { return (batch, storage) }
            contents = Contents(items: storage)
            queuedCount.store(0, ordering: .releasing)
            return (batch, [])
        }
        if spare.capacity == 0 { spare = unused }
        return batch
    }

    /// Most items a recycled batch's storage may hold (a flood's large one is let go).
    static var maxRecycledItems: Int { 64 }

    /// Hands back a handled batch's items (the caller's copy is emptied): their storage
    /// takes the next batch, so a wake makes no array of its own.
    func recycle(_ items: inout [Item]) {
        guard items.capacity <= Self.maxRecycledItems else { return items = [] }
        items.removeAll(keepingCapacity: true)
        if spare.capacity == 0 { swap(&spare, &items) }
    }
}
