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
}
