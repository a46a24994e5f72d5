@testable import BridgeCore
@testable import BridgeDaemon
import Foundation
import ShellSupport
import Testing

/// The loop that owns the core, with its ports recorded: order of inputs and
/// what happens when the event ids cannot be written.
@Suite("The runtime loop")
struct BridgeRuntimeTests {
    static let config: BridgeConfig = {
        var config = BridgeConfig()
        config.timing.settleWindowMs = 0
        config.widgets = [WidgetConfig(slug: "w", actions: [
            ActionConfig(id: "fan", label: "Fan", kind: .toggle,
                         stateSources: [StateSource(topic: "home/fan/state")], command: ToggleCommand(topic: "home/fan/set")),
            ActionConfig(id: "feed", label: "Feed", kind: .button,
                         publishes: [MQTTMessageSpec(topic: "home/feeder/cmd", payload: "dispense")], repeatSafe: false),
        ])]
        return config
    }()

    static func press(_ action: String, kind: String, value: Bool? = nil, id: String) -> RuntimeInput {
        let now = WallClock.nowEpochMs()
        let valueField = value.map { ",\"value\":\($0)" } ?? ""
        let json = "{\"id\":\"\(id)\",\"type\":\"widget.action.v1\",\"created_at\":\"\(LogTimestamp.format(epochMs: now))\","
            + "\"expires_at\":\"\(LogTimestamp.format(epochMs: now + 5_000))\",\"data\":{\"widget\":\"w\",\"action\":\"\(action)\","
            + "\"kind\":\"\(kind)\"\(valueField)}}"
        return .streamEvent(StreamEvent(id: id, type: "widget.action.v1", data: json), receivedAtUs: MonotonicClock.nowUs())
    }

    /// Ports that record publishes and PATCHes; the first PATCH can be held.
    final class Recorder: Sendable {
        let published = ConditionLock<[String]>([])
        let patches = ConditionLock<[String]>([])
        let holdFirstPatch = ConditionLock<Bool>(false)

        func ports(persist: @escaping @Sendable (RememberedEvent) throws(FileError) -> Void = { _ in }) -> RuntimePorts {
            RuntimePorts(
                publishMQTT: { [published] message in
                    published.withLock { $0.append(message.topic + " " + String(decoding: message.payload, as: UTF8.self)) }
                },
                setSubscriptions: { _ in },
                sendPatch: { [patches, holdFirstPatch] request, completion in
                    let isFirst = patches.withLock { list in list.append(request.body); return list.count == 1 }
                    if isFirst { holdFirstPatch.wait(timeoutMs: 5_000, until: { !$0 }) }
                    completion(.status(200))
                },
                unsafeEventRecorder: ClosureRecorder(persist), reloadConfig: { nil }, log: { _, _ in })
        }
    }

    @Test func inputsAreHandledInArrivalOrderMQTTIncluded() throws {
        let recorder = Recorder()
        recorder.holdFirstPatch.withLock { $0 = true }
        let runtime = BridgeRuntime(bridge: Bridge(config: Self.config), ports: recorder.ports())
        runtime.submit(.core(.mqttConnected))
        runtime.submitMQTTMessage(topic: "home/fan/state", payload: Array("OFF".utf8))
        let loop = try ShellThread { runtime.run() }
        #expect(recorder.patches.wait(timeoutMs: 5_000, until: { !$0.isEmpty }))
        // While the loop is held in its first PATCH: the fan is switched on by hand,
        // then a phone asks for off. The press must see the fan on.
        runtime.submitMQTTMessage(topic: "home/fan/state", payload: Array("ON".utf8))
        runtime.submit(Self.press("fan", kind: "toggle", value: false, id: "e1"))
        recorder.holdFirstPatch.withLock { $0 = false }
        #expect(recorder.published.wait(timeoutMs: 5_000, until: { $0.contains("home/fan/set OFF") }))
        runtime.submit(.stopRequested)
        loop.join()
    }

    @Test func aFailedRecordHoldsBackTheCommandButNotTheAnswerOrLaterPublishes() throws {
        let recorder = Recorder()
        let runtime = BridgeRuntime(bridge: Bridge(config: Self.config), ports: recorder.ports(persist: { _ throws(FileError) in
            throw FileError(path: "/var/lib/switchboard-bridge/unsafe-event-ids.json", operation: "write", errorNumber: ENOSPC)
        }))
        runtime.submit(.core(.mqttConnected))
        runtime.submitMQTTMessage(topic: "home/fan/state", payload: Array("OFF".utf8))
        let loop = try ShellThread { runtime.run() }
        #expect(recorder.patches.wait(timeoutMs: 5_000, until: { $0.count == 1 }))
        runtime.submit(Self.press("feed", kind: "button", id: "e1"))
        #expect(recorder.patches.wait(timeoutMs: 5_000, until: { $0.count == 2 }), "the press is still answered")
        runtime.submitMQTTMessage(topic: "home/fan/state", payload: Array("ON".utf8))
        #expect(recorder.patches.wait(timeoutMs: 5_000, until: { $0.count == 3 }), "the widget is not stuck")
        #expect(!recorder.published.withLock { $0 }.contains { $0.hasPrefix("home/feeder/cmd") })
        runtime.submit(.stopRequested)
        loop.join()
    }

    /// Issue 12, item 7: a full inbox is reported at once, as one line for the whole
    /// batch, exempt from the log's per-kind limit (its own pace is one line per 10 s).
    @Test func aFullInboxIsReportedOnceForTheBatch() throws {
        let warnings = ConditionLock<[LogMessage]>([])
        var ports = Recorder().ports()
        ports.log = { [warnings] level, message in if level == .warning { warnings.withLock { $0.append(message) } } }
        let runtime = BridgeRuntime(bridge: Bridge(config: Self.config), ports: ports)
        for index in 0..<3_000 { runtime.submit(Self.press("ghost", kind: "button", id: "g\(index)")) }
        let loop = try ShellThread { runtime.run() }
        #expect(warnings.wait(timeoutMs: 5_000, until: { $0.contains { $0.text.hasPrefix("inbox full") } }))
        runtime.submit(.stopRequested)
        loop.join()
        let reports = warnings.withLock { $0 }.filter { $0.text.hasPrefix("inbox full") }
        #expect(reports.map(\.text) == ["inbox full: 1976 inputs dropped; further drops are summed up every 10 s"])
        #expect(reports.allSatisfy { !$0.isRateLimited })
    }

    @Test func theInboxKeepsArrivalOrderEveryMessageAndCoalescesOnlyWhenFull() {
        let inbox = RuntimeInbox(inputCapacity: 2, mqttCapacity: 3)
        inbox.pushMQTT(topic: "a", payload: [1])
        inbox.push(.reloadRequested)
        inbox.pushMQTT(topic: "b", payload: [2])
        inbox.pushMQTT(topic: "a", payload: [3])
        #expect(inbox.pushMQTT(topic: "a", payload: [4]), "full: replaces the oldest 'a'")
        #expect(!inbox.pushMQTT(topic: "c", payload: [5]), "full and nothing of 'c' to replace")
        inbox.push(Self.press("feed", kind: "button", id: "x1"))
        #expect(!inbox.push(Self.press("feed", kind: "button", id: "x2")), "bounded by inputs")
        #expect(inbox.push(.stopRequested), "a stop is always taken")
        let batch = inbox.take(timeoutMs: 0)
        let order = batch.items.map { item -> String in
            switch item {
            case .input(.reloadRequested): return "reload"
            case .input(.stopRequested): return "stop"
            case .input(.streamEvent): return "press"
            case .input: return "other"
            case .mqttMessage(let topic, let payload): return "\(topic)\(payload[0])"
            }
        }
        #expect(order == ["reload", "b2", "a3", "a4", "press", "stop"])
        #expect(batch.droppedCount == 2)
    }

    /// Issue 23: a handled batch's storage takes the next batch: the next take holds
    /// only what came since, every bound counts from zero again, and a large batch's
    /// storage is let go.
    @Test func aRecycledBatchHoldsOnlyWhatCameSince() {
        let inbox = RuntimeInbox(inputCapacity: 2, mqttCapacity: 2)
        inbox.pushMQTT(topic: "a", payload: [1])
        inbox.pushMQTT(topic: "b", payload: [2])
        var first = inbox.take(timeoutMs: 0)
        #expect(first.items.count == 2)
        inbox.recycle(&first.items)
        #expect(first.items.isEmpty)
        inbox.pushMQTT(topic: "c", payload: [3])
        #expect(inbox.take(timeoutMs: 0).items.count == 1)
        inbox.pushMQTT(topic: "d", payload: [4])
        inbox.pushMQTT(topic: "e", payload: [5])
        #expect(!inbox.pushMQTT(topic: "f", payload: [6]), "the count starts from zero again, and is bounded")
        var second = inbox.take(timeoutMs: 0)
        #expect(second.items.count == 2 && second.droppedCount == 1)
        inbox.recycle(&second.items)
        var large: [RuntimeInbox.Item] = Array(repeating: .mqttMessage(topic: "x", payload: []), count: RuntimeInbox.maxRecycledItems + 1)
        inbox.recycle(&large)
        #expect(large.isEmpty)
        #expect(inbox.take(timeoutMs: 0).items.isEmpty)
    }

    /// Issue 12: control inputs are never dropped (a reload or stop already
    /// queued covers another), and MQTT is bounded in bytes as well as count.
    @Test func controlInputsAreNeverDroppedAndMQTTIsBoundedInBytes() {
        let inbox = RuntimeInbox(inputCapacity: 1, mqttCapacity: 100, mqttByteCapacity: 10)
        inbox.push(Self.press("feed", kind: "button", id: "x1"))
        #expect(!inbox.push(Self.press("feed", kind: "button", id: "x2")))
        for input: RuntimeInput in [.core(.mqttConnected), .core(.mqttDisconnected), .core(.eventStreamDisconnected),
                                    .eventStreamConnected(dateHeader: nil, receivedAtMonotonicMs: 0), .reloadRequested, .stopRequested] {
            #expect(inbox.push(input))
        }
        for _ in 0..<1_000 { inbox.push(.reloadRequested); inbox.push(.stopRequested) }
        #expect(inbox.pushMQTT(topic: "a", payload: [1, 2, 3, 4]), "5 bytes")
        #expect(inbox.pushMQTT(topic: "b", payload: [1, 2, 3, 4]), "10 bytes")
        #expect(!inbox.pushMQTT(topic: "c", payload: [1]), "over 10 bytes, no 'c' to replace")
        #expect(inbox.pushMQTT(topic: "a", payload: [9, 9]), "replaces the older 'a'")
        #expect(!inbox.pushMQTT(topic: "b", payload: Array(repeating: 0, count: 64)), "too big even after replacing 'b'")
        let batch = inbox.take(timeoutMs: 0)
        #expect(batch.items.count == 1 + 6 + 2)
        #expect(batch.droppedCount == 3)
    }

    /// Session 3 review (F-ssemem): stream events (each up to 64 KiB) were bounded by count
    /// only (1,024 of them: 64 MiB); now by bytes too, control inputs still always taken.
    @Test func streamEventsAreBoundedInBytesAndControlInputsStillTaken() {
        let inbox = RuntimeInbox(inputCapacity: 1_024, inputByteCapacity: 256 * 1_024)
        let pad = String(repeating: "p", count: 65_000)
        func bigPress(_ index: Int) -> RuntimeInput {
            .streamEvent(StreamEvent(id: "evt_\(index)", type: "widget.action.v1", data: "{\"pad\":\"\(pad)\"}"), receivedAtUs: 0)
        }
        let taken = (0..<100).filter { inbox.push(bigPress($0)) }.count
        #expect(taken == 4, "256 KiB hold 4 events of ~64 KB, not 100")
        #expect(inbox.push(.core(.mqttDisconnected)), "control inputs are never dropped")
        #expect(inbox.push(.stopRequested))
        #expect(!inbox.push(bigPress(100)), "the byte budget is spent")
        let batch = inbox.take(timeoutMs: 0)
        #expect(batch.items.count == 4 + 2)
        #expect(batch.droppedCount == 97)
        #expect(inbox.push(bigPress(200)), "room again once taken")
    }
}
