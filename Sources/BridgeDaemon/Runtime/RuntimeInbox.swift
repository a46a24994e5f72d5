import BridgeCore
import ShellSupport

/// The runtime's bounded inbox, handed out in arrival order. MQTT messages are
/// coalesced to the latest payload per topic, which takes the place of the
/// topic's last arrival (only the latest state matters, and a burst of thousands
/// never grows memory past one entry per topic); everything else is a FIFO.
final class RuntimeInbox: Sendable {
    /// One thing to handle, in order.
    enum Item {
        case input(RuntimeInput)
        case mqttMessage(topic: String, payload: [UInt8])
    }

    struct Contents {
        var nextSequence: UInt64 = 0
        var inputs: [(sequence: UInt64, input: RuntimeInput)] = []
        var latestByTopic: [String: (sequence: UInt64, payload: [UInt8])] = [:]
        var droppedCount = 0

        var isEmpty: Bool { inputs.isEmpty && latestByTopic.isEmpty }

        mutating func takeSequence() -> UInt64 {
            nextSequence += 1
            return nextSequence
        }
    }

    /// One drained batch, in arrival order.
    struct Batch {
        var items: [Item]
        var droppedCount: Int
    }

    let inputCapacity: Int
    let topicCapacity: Int
    private let lock = ConditionLock(Contents())

    init(inputCapacity: Int = 1_024, topicCapacity: Int = 4_096) {
        self.inputCapacity = inputCapacity
        self.topicCapacity = topicCapacity
    }

    /// Queues an input; false (and counted) when the inbox is full. A stop and
    /// the answer to a PATCH are always taken: losing either would hang the
    /// daemon or its widget (their number is bounded by their senders).
    @discardableResult
    func push(_ input: RuntimeInput) -> Bool {
        lock.withLock { contents in
            guard contents.inputs.count < inputCapacity || Self.isEssential(input) else {
                contents.droppedCount += 1
                return false
            }
            contents.inputs.append((contents.takeSequence(), input))
            return true
        }
    }

    static func isEssential(_ input: RuntimeInput) -> Bool {
        switch input {
        case .stopRequested, .core(.patchCompleted): return true
        default: return false
        }
    }

    /// Queues an MQTT message, replacing an older payload of the same topic.
    @discardableResult
    func pushMQTT(topic: String, payload: [UInt8]) -> Bool {
        lock.withLock { contents in
            guard contents.latestByTopic[topic] != nil || contents.latestByTopic.count < topicCapacity else {
                contents.droppedCount += 1
                return false
            }
            contents.latestByTopic[topic] = (contents.takeSequence(), payload)
            return true
        }
    }

    /// Waits up to `timeoutMs` (negative: no limit) for something, then takes all of it.
    func take(timeoutMs: Int) -> Batch {
        lock.wait(timeoutMs: timeoutMs, until: { !$0.isEmpty }) { contents in
            var ordered: [(sequence: UInt64, item: Item)] = contents.inputs.map { ($0.sequence, .input($0.input)) }
            for (topic, latest) in contents.latestByTopic {
                ordered.append((latest.sequence, .mqttMessage(topic: topic, payload: latest.payload)))
            }
            ordered.sort { $0.sequence < $1.sequence }
            let batch = Batch(items: ordered.map(\.item), droppedCount: contents.droppedCount)
            contents.inputs = []
            contents.latestByTopic = [:]
            contents.droppedCount = 0
            return batch
        }
    }
}
