@testable import BridgeCore
@testable import BridgeDaemon
import Foundation
import ShellSupport
import Testing

/// Issue 12 (lower): a press whose record failed is not counted as carried
/// out, not logged as reaching MQTT, and not remembered as a duplicate, so the
/// service's replay can still run it once the state directory is writable again.
@Suite("The runtime loop when an unsafe press cannot be recorded")
struct UnrecordedPressTests {
    final class Ports: Sendable {
        let published = ConditionLock<[String]>([])
        let observed = ConditionLock<[BridgeObservation]>([])
        let reached = ConditionLock<[String]>([])
        let logs = ConditionLock<[String]>([])
        let isDiskFull = ConditionLock<Bool>(true)

        func make() -> RuntimePorts {
            RuntimePorts(
                publishMQTT: { [published] message in published.withLock { $0.append(message.topic) } },
                setSubscriptions: { _ in },
                sendPatch: { _, completion in completion(.status(200)) },
                unsafeEventRecorder: ClosureRecorder { [isDiskFull] _ throws(FileError) in
                    if isDiskFull.withLock({ $0 }) { throw FileError(path: "/state/ids", operation: "write", errorNumber: ENOSPC) }
                },
                reloadConfig: { nil },
                log: { [logs] _, message in logs.withLock { $0.append("\(message)") } },
                observe: { [observed] observation in observed.withLock { $0.append(observation) } },
                pressReachedMQTT: { [reached] eventId, _ in reached.withLock { $0.append(eventId) } })
        }
    }

    @Test func aPressWhoseRecordFailedIsNotCarriedOutAndAReplayRunsIt() throws {
        let ports = Ports()
        let runtime = BridgeRuntime(bridge: Bridge(config: BridgeRuntimeTests.config), ports: ports.make())
        runtime.submit(.core(.mqttConnected))
        runtime.submitMQTTMessage(topic: "home/fan/state", payload: Array("OFF".utf8))
        let loop = try ShellThread { runtime.run() }
        runtime.submit(BridgeRuntimeTests.press("feed", kind: "button", id: "e1"))
        #expect(ports.logs.wait(timeoutMs: 5_000, until: { $0.contains { $0.contains("press e1 not carried out") } }))
        #expect(ports.published.withLock { $0 }.filter { $0 == "home/feeder/cmd" }.isEmpty)
        #expect(ports.reached.withLock { $0 }.isEmpty, "not logged as reaching MQTT")
        // Session 3 review: the press was refused but also logged "1 message(s) published".
        #expect(!ports.logs.withLock { $0 }.contains { $0.contains("press e1") && $0.contains("published") },
                "\(ports.logs.withLock { $0 })")
        #expect(!ports.observed.withLock { $0 }.contains { if case .pressCarriedOut = $0 { true } else { false } })
        #expect(ports.observed.wait(timeoutMs: 5_000, until: { $0.contains(.pressDropped(eventId: "e1", reason: .notRecorded)) }))

        ports.isDiskFull.withLock { $0 = false }
        runtime.submit(BridgeRuntimeTests.press("feed", kind: "button", id: "e1"))
        #expect(ports.published.wait(timeoutMs: 5_000, until: { $0.contains("home/feeder/cmd") }), "the replay runs: not a duplicate")
        #expect(ports.reached.wait(timeoutMs: 5_000, until: { $0 == ["e1"] }))
        #expect(ports.logs.wait(timeoutMs: 5_000, until: { $0.contains { $0.contains("press e1") && $0.contains("published") } }),
                "once recorded, the press is logged as carried out")
        runtime.submit(.stopRequested)
        loop.join()
    }
}
