@testable import BridgeCore
@testable import BridgeDaemon
import ShellSupport
import Testing

/// Issue 23: the shells hand their inputs to the runtime through the relay
/// without a lock of its own: the relay owns the inbox the runtime takes over,
/// so what comes before the runtime exists waits (it was dropped before `attach`).
@Suite("The relay between the shells and the runtime")
struct RuntimeRelayTests {
    @Test func whatComesBeforeTheRuntimeIsHandledOnceItRuns() throws {
        let eventLoop = try EventLoop()
        let relay = RuntimeRelay(loop: eventLoop)
        relay.submit(.core(.mqttConnected))
        relay.submitMQTTMessage(topic: "home/fan/state", payload: Array("ON".utf8))
        let summaries = ConditionLock<[BatchSummary]>([])
        let runtime = BridgeRuntime(bridge: Bridge(config: BridgeRuntimeTests.config), ports: BatchSummaryTests.ports(summaries),
                                    loop: eventLoop, relay: relay)
        let thread = try ShellThread { runtime.run() }
        #expect(summaries.wait(timeoutMs: 5_000, until: { $0.last?.isMQTTConnected == true }))
        // The runtime's own `submit` goes through the same relay.
        runtime.submit(.core(.mqttDisconnected))
        #expect(summaries.wait(timeoutMs: 5_000, until: { $0.last?.isMQTTConnected == false }))
        relay.submit(.stopRequested)
        thread.join()
    }

    /// Issue 42 §2: what the loop's own thread hands the runtime (a press, its echo,
    /// its PATCH's answer: every shell runs there) waits in a lane of its own, without
    /// the lock; a batch holds what other threads handed over first, then the loop's,
    /// each in arrival order.
    @Test func theLoopsOwnInputsComeAfterWhatOtherThreadsHandedOver() throws {
        let eventLoop = try EventLoop()
        let relay = RuntimeRelay(loop: eventLoop)
        let handedOver = ConditionLock(false)
        let taken = ConditionLock<[String]?>(nil)
        let loopThread = try ShellThread {
            eventLoop.turn(timeoutMs: 0)   // this thread turns the loop, and takes
            relay.submitMQTTMessage(topic: "loop/1", payload: [])
            relay.submit(.core(.mqttConnected))
            relay.submitMQTTMessage(topic: "loop/2", payload: [])
            handedOver.wait(timeoutMs: 5_000, until: { $0 })
            let batch = relay.inbox.take(timeoutMs: 0)
            taken.withLock { $0 = batch.items.map(Self.name) }
        }
        relay.submitMQTTMessage(topic: "other/1", payload: [])
        relay.submit(.reloadRequested)
        handedOver.withLock { $0 = true }
        loopThread.join()
        #expect(taken.withLock { $0 } == ["other/1", "reload", "loop/1", "connected", "loop/2"])
    }

    /// The taking thread's own lane is taken at once, without waiting for another thread.
    @Test func whatTheTakingThreadQueuedIsTakenWithoutWaiting() {
        let inbox = RuntimeInbox(mqttCapacity: 2)
        #expect(inbox.isEmpty)
        inbox.pushMQTT(topic: "a", payload: [1], fromTakingThread: true)
        inbox.pushMQTT(topic: "b", payload: [2], fromTakingThread: true)
        #expect(!inbox.pushMQTT(topic: "c", payload: [3], fromTakingThread: true), "bounded like the other lane")
        #expect(!inbox.isEmpty)
        var batch = inbox.take(timeoutMs: -1)   // would wait forever for another thread
        #expect(batch.items.map(Self.name) == ["a", "b"] && batch.droppedCount == 1)
        inbox.recycle(&batch.items)
        #expect(inbox.isEmpty)
        inbox.push(.stopRequested, fromTakingThread: true)
        #expect(inbox.take(timeoutMs: 0).items.map(Self.name) == ["stop"], "the counts start from zero again")
    }

    static func name(_ item: RuntimeInbox.Item) -> String {
        switch item {
        case .mqttMessage(let topic, _): return topic
        case .input(.reloadRequested): return "reload"
        case .input(.stopRequested): return "stop"
        case .input(.core(.mqttConnected)): return "connected"
        case .input: return "other"
        }
    }
}
