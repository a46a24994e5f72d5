import BridgeCore
import ShellSupport

/// The runtime's bounded inbox. MQTT messages are coalesced to the latest
/// payload per topic (only the latest state matters, and a burst of thousands
/// never grows memory past one entry per topic); everything else is a FIFO.
final class RuntimeInbox: Sendable {
    struct Contents {
        var inputs: [RuntimeInput] = []
        var latestPayloadByTopic: [String: [UInt8]] = [:]
        var topicsInArrivalOrder: [String] = []
        var droppedCount = 0

        var isEmpty: Bool { inputs.isEmpty && topicsInArrivalOrder.isEmpty }
    }

    /// One drained batch, in the order to handle it.
    struct Batch {
        var inputs: [RuntimeInput]
        var mqttMessages: [(topic: String, payload: [UInt8])]
        var droppedCount: Int
    }

    let inputCapacity: Int
    let topicCapacity: Int
    private let lock = ConditionLock(Contents())

    init(inputCapacity: Int = 1_024, topicCapacity: Int = 4_096) {
        self.inputCapacity = inputCapacity
        self.topicCapacity = topicCapacity
    }

    /// Queues an input; false (and counted) when the inbox is full.
    @discardableResult
    func push(_ input: RuntimeInput) -> Bool {
        lock.withLock { contents in
            guard contents.inputs.count < inputCapacity else {
                contents.droppedCount += 1
                return false
            }
            contents.inputs.append(input)
            return true
        }
    }

    /// Queues an MQTT message, replacing an older payload of the same topic.
    @discardableResult
    func pushMQTT(topic: String, payload: [UInt8]) -> Bool {
        lock.withLock { contents in
            if contents.latestPayloadByTopic.updateValue(payload, forKey: topic) == nil {
                guard contents.topicsInArrivalOrder.count < topicCapacity else {
                    contents.latestPayloadByTopic[topic] = nil
                    contents.droppedCount += 1
                    return false
                }
                contents.topicsInArrivalOrder.append(topic)
            }
            return true
        }
    }

    /// Waits up to `timeoutMs` (negative: no limit) for something, then takes all of it.
    func take(timeoutMs: Int) -> Batch {
        lock.wait(timeoutMs: timeoutMs, until: { !$0.isEmpty }) { contents in
            let batch = Batch(
                inputs: contents.inputs,
                mqttMessages: contents.topicsInArrivalOrder.compactMap { topic in
                    contents.latestPayloadByTopic[topic].map { (topic, $0) }
                },
                droppedCount: contents.droppedCount
            )
            contents = Contents()
            return batch
        }
    }
}
