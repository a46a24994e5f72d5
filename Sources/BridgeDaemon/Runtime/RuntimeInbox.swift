import BridgeCore
import ShellSupport

/// The runtime's bounded inbox, handed out in arrival order. Every MQTT
/// message is kept while there is room (several actions may read different
/// fields of one topic's partial payloads); when the MQTT share is full, by
/// count or by bytes, a new message replaces the oldest queued one of its topic
/// (only the latest state matters then), or is dropped and counted. Other data
/// inputs (stream events, each up to 64 KiB) are bounded by count and by bytes
/// too. Control inputs (connects, disconnects, reload, stop, PATCH answers) are
/// never dropped.
final class RuntimeInbox: Sendable {
    /// One thing to handle, in order.
    enum Item {
        case input(RuntimeInput)
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
    func push(_ input: RuntimeInput) -> Bool {
        lock.withLock { contents in
            let isEssential = Self.isEssential(input)
            let bytes = isEssential ? 0 : Self.byteCount(input)
            let hasRoom = contents.inputCount < inputCapacity && contents.inputBytes + bytes <= inputByteCapacity
            guard hasRoom || isEssential else {
                contents.droppedCount += 1
                return false
            }
            // A reload or stop already queued covers another one: stays bounded.
            if isEssential, Self.isIdempotent(input), contents.items.contains(where: { Self.isSameRequest($0, input) }) {
                return true
            }
            contents.items.append(.input(input))
            contents.inputCount += 1
            contents.inputBytes += bytes
            return true
        }
    }

    /// What one queued data input costs: the text it carries (a stream event's id,
    /// type and data), at least 1.
    static func byteCount(_ input: RuntimeInput) -> Int {
        switch input {
        case .streamEvent(let event, _), .core(.streamEvent(let event)):
            return max(1, (event.id?.utf8.count ?? 0) + event.type.utf8.count + event.data.utf8.count)
        default:
            return 1
        }
    }

    static func isIdempotent(_ input: RuntimeInput) -> Bool {
        switch input {
        case .stopRequested, .reloadRequested: return true
        default: return false
        }
    }

    private static func isSameRequest(_ item: Item, _ input: RuntimeInput) -> Bool {
        switch (item, input) {
        case (.input(.stopRequested), .stopRequested), (.input(.reloadRequested), .reloadRequested): return true
        default: return false
        }
    }

    static func isEssential(_ input: RuntimeInput) -> Bool {
        switch input {
        case .stopRequested, .reloadRequested, .eventStreamConnected: return true
        case .core(.patchCompleted), .core(.mqttConnected), .core(.mqttDisconnected),
             .core(.eventStreamConnected), .core(.eventStreamDisconnected), .core(.eventStreamTokenRefused),
             .core(.configReloaded), .core(.timerFired):
            return true
        default: return false
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
    }

    /// What one queued message costs: its topic and payload bytes.
    static func byteCount(topic: String, payload: [UInt8]) -> Int {
        topic.utf8.count + payload.count
    }

    /// Waits up to `timeoutMs` (negative: no limit) for something, then takes all of it.
    func take(timeoutMs: Int) -> Batch {
        lock.wait(timeoutMs: timeoutMs, until: { !$0.items.isEmpty }) { contents in
            let batch = Batch(items: contents.items, droppedCount: contents.droppedCount)
            contents = Contents()
            return batch
        }
    }
}
