import BridgeCore
import ShellSupport

/// The runtime's bounded inbox, handed out in arrival order. Every MQTT
/// message is kept while there is room (several actions may read different
/// fields of one topic's partial payloads); when the MQTT share is full, a new
/// message replaces the oldest queued one of its topic (only the latest state
/// matters then), or is dropped and counted.
final class RuntimeInbox: Sendable {
    /// One thing to handle, in order.
    enum Item {
        case input(RuntimeInput)
        case mqttMessage(topic: String, payload: [UInt8])
    }

    struct Contents {
        var items: [Item] = []
        var inputCount = 0
        var mqttCount = 0
        var droppedCount = 0
    }

    /// One drained batch, in arrival order.
    struct Batch {
        var items: [Item]
        var droppedCount: Int
    }

    let inputCapacity: Int
    let mqttCapacity: Int
    private let lock = ConditionLock(Contents())

    init(inputCapacity: Int = 1_024, mqttCapacity: Int = 16_384) {
        self.inputCapacity = inputCapacity
        self.mqttCapacity = mqttCapacity
    }

    /// Queues an input; false (and counted) when the inbox is full. A stop and
    /// the answer to a PATCH are always taken: losing either would hang the
    /// daemon or its widget (their number is bounded by their senders).
    @discardableResult
    func push(_ input: RuntimeInput) -> Bool {
        lock.withLock { contents in
            guard contents.inputCount < inputCapacity || Self.isEssential(input) else {
                contents.droppedCount += 1
                return false
            }
            contents.items.append(.input(input))
            contents.inputCount += 1
            return true
        }
    }

    static func isEssential(_ input: RuntimeInput) -> Bool {
        switch input {
        case .stopRequested, .core(.patchCompleted): return true
        default: return false
        }
    }

    /// Queues an MQTT message; when the MQTT share is full it replaces the
    /// oldest queued message of the same topic, else it is dropped (false).
    @discardableResult
    func pushMQTT(topic: String, payload: [UInt8]) -> Bool {
        lock.withLock { contents in
            if contents.mqttCount >= mqttCapacity {
                guard let older = contents.items.firstIndex(where: { item in
                    if case .mqttMessage(let queuedTopic, _) = item { return queuedTopic == topic }
                    return false
                }) else {
                    contents.droppedCount += 1
                    return false
                }
                contents.items.remove(at: older)
                contents.mqttCount -= 1
            }
            contents.items.append(.mqttMessage(topic: topic, payload: payload))
            contents.mqttCount += 1
            return true
        }
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
