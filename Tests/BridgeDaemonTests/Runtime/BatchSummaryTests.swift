@testable import BridgeCore
@testable import BridgeDaemon
import ShellSupport
import Testing

/// Issue 23: after a batch the watchers get a few facts (`BatchSummary`), not a
/// snapshot of everything; the status view builds its snapshot when a request
/// comes, on the loop's thread, so it sees the state as it is then.
@Suite("What the runtime hands over after a batch")
struct BatchSummaryTests {
    static func ports(_ summaries: ConditionLock<[BatchSummary]>) -> RuntimePorts {
        RuntimePorts(
            publishMQTT: { _ in }, setSubscriptions: { _ in }, sendPatch: { _, completion in completion(.status(200)) },
            unsafeEventRecorder: ClosureRecorder(), reloadConfig: { nil }, log: { _, _ in },
            afterBatch: { summary in summaries.withLock { $0.append(summary) } })
    }

    @Test func theSummaryNamesTheConnectionsTheTokensRefusalAndTheActions() throws {
        let summaries = ConditionLock<[BatchSummary]>([])
        let runtime = BridgeRuntime(bridge: Bridge(config: BridgeRuntimeTests.config), ports: Self.ports(summaries))
        let loop = try ShellThread { runtime.run() }
        runtime.submit(.core(.mqttConnected))
        runtime.submit(.core(.eventStreamTokenRefused(status: 401)))
        #expect(summaries.wait(timeoutMs: 5_000, until: { $0.last?.tokenRefusedPhrase != nil }), "\(summaries.withLock { $0 })")
        let last = try #require(summaries.withLock { $0.last })
        #expect(last == BatchSummary(isMQTTConnected: true, isEventStreamConnected: false,
                                     tokenRefusedPhrase: "token refused by the service (HTTP 401)", actionCount: 2,
                                     serverClockOffsetMs: 0))
        // The core is the loop's: another thread gets no snapshot (and no data race).
        #expect(runtime.statusSnapshot() == nil)
        runtime.submit(.stopRequested)
        loop.join()
    }

    /// A loop source standing in for the status server: asks for the snapshot on
    /// the loop's thread at every turn, as a GET does.
    final class SnapshotReader: LoopSource, @unchecked Sendable {
        weak var runtime: BridgeRuntime?
        let seen = ConditionLock<[Bool]>([])

        func loopWants(nowMs: Int64) -> LoopWants { LoopWants(deadlineMs: nowMs + 5) }

        func loopService(ready: [LoopReadiness], nowMs: Int64) {
            guard let snapshot = runtime?.statusSnapshot() else { return }
            seen.withLock { $0.append(snapshot.isMQTTConnected) }
        }
    }

    @Test func theStatusSnapshotIsBuiltOnTheLoopWhenAskedAndIsCurrent() throws {
        let summaries = ConditionLock<[BatchSummary]>([])
        let eventLoop = try EventLoop()
        let runtime = BridgeRuntime(bridge: Bridge(config: BridgeRuntimeTests.config), ports: Self.ports(summaries),
                                    loop: eventLoop)
        let reader = SnapshotReader()
        reader.runtime = runtime
        eventLoop.add(reader)
        let thread = try ShellThread { runtime.run() }
        #expect(reader.seen.wait(timeoutMs: 5_000, until: { $0.contains(false) }))
        runtime.submit(.core(.mqttConnected))
        #expect(reader.seen.wait(timeoutMs: 5_000, until: { $0.last == true }), "\(reader.seen.withLock { $0.suffix(3) })")
        runtime.submit(.stopRequested)
        thread.join()
    }
}
