@testable import BridgeCore
@testable import BridgeDaemon
import Foundation
import ShellSupport
import Testing
import TestSupport

/// Issue 38 item 8: a slow disk (an injected 400 ms sync under the real id
/// store) must not block the loop. A safe press never waits for a sync; an
/// unsafe press waits only for its own record (and at most the sync already
/// under way when it came: group commit).
@Suite("The runtime on a slow disk (issue 38 item 8)", .serialized)
struct SlowDiskTests {
    static let syncMs = 400

    final class Ports: Sendable {
        let published = ConditionLock<[(topic: String, atMs: Int64)]>([])
        let logs = ConditionLock<[String]>([])
        let syncs = ConditionLock<Int>(0)

        func make(recorder: any UnsafeEventRecorder) -> RuntimePorts {
            RuntimePorts(
                publishMQTT: { [published] message in published.withLock { $0.append((message.topic, MonotonicClock.nowMs())) } },
                setSubscriptions: { _ in },
                sendPatch: { _, completion in completion(.status(200)) },
                unsafeEventRecorder: recorder,
                reloadConfig: { nil },
                log: { [logs] _, message in logs.withLock { $0.append("\(message)") } })
        }

        func publishedAtMs(_ topic: String) -> [Int64] { published.withLock { $0.filter { $0.topic == topic }.map(\.atMs) } }
    }

    /// The real store, its sync slowed to `syncMs`, behind its syncing thread.
    static func slowRecorder(_ directory: TemporaryDirectory, _ ports: Ports) throws -> (SyncingEventIdRecorder, EventIdStore) {
        let store = EventIdStore(directory: directory.path, syncData: { [syncs = ports.syncs] descriptor in
            usleep(UInt32(Self.syncMs * 1000))
            syncs.withLock { $0 += 1 }
            return fdatasync(descriptor)
        })
        try store.openForAppending()
        _ = store.load()
        return (SyncingEventIdRecorder(store: store, report: { _ in }), store)
    }

    @Test func aSafePressDoesNotWaitForAnUnsafePressesSync() throws {
        let directory = try TemporaryDirectory(prefix: "slow-disk")
        defer { directory.remove() }
        let ports = Ports()
        let (recorder, _) = try Self.slowRecorder(directory, ports)
        defer { recorder.stop() }
        let runtime = BridgeRuntime(bridge: Bridge(config: BridgeRuntimeTests.config), ports: ports.make(recorder: recorder))
        runtime.submit(.core(.mqttConnected))
        runtime.submitMQTTMessage(topic: "home/fan/state", payload: Array("OFF".utf8))
        let loop = try ShellThread { runtime.run() }
        defer { runtime.submit(.stopRequested); loop.join() }

        runtime.submit(BridgeRuntimeTests.press("feed", kind: "button", id: "u1"))
        let safeAtMs = MonotonicClock.nowMs()
        runtime.submit(BridgeRuntimeTests.press("fan", kind: "toggle", value: true, id: "s1"))
        #expect(ports.published.wait(timeoutMs: 5_000, until: { $0.contains { $0.topic == "home/fan/set" } }))
        let fanAtMs = try #require(ports.publishedAtMs("home/fan/set").first)
        #expect(fanAtMs - safeAtMs < 150, "the safe press waited \(fanAtMs - safeAtMs) ms for a sync")
        #expect(ports.publishedAtMs("home/feeder/cmd").isEmpty, "the unsafe press's command went out before its sync")
        #expect(ports.published.wait(timeoutMs: 5_000, until: { $0.contains { $0.topic == "home/feeder/cmd" } }))
        let feederAtMs = try #require(ports.publishedAtMs("home/feeder/cmd").first)
        #expect(feederAtMs - safeAtMs >= Int64(Self.syncMs) - 20, "sent \(feederAtMs - safeAtMs) ms after: before its sync ended")
        let file = try String(contentsOfFile: directory.file(EventIdStore.fileName), encoding: .utf8)
        #expect(file.contains("u1"), "\(file)")
    }

    /// Eight unsafe presses a few ms apart: each is sent within its own sync and the
    /// one under way when it came (group commit), never after the seven before it.
    @Test func unsafePressesWaitOnlyForTheirOwnRecord() throws {
        let directory = try TemporaryDirectory(prefix: "slow-disk")
        defer { directory.remove() }
        let ports = Ports()
        let (recorder, store) = try Self.slowRecorder(directory, ports)
        defer { recorder.stop() }
        var config = BridgeRuntimeTests.config
        config.widgets[0].actions += (1...8).map { index in
            ActionConfig(id: "feed\(index)", label: "Feeder \(index)", kind: .button,
                         publishes: [MQTTMessageSpec(topic: "home/feeder\(index)/cmd", payload: "dispense")], repeatSafe: false)
        }
        let runtime = BridgeRuntime(bridge: Bridge(config: config), ports: ports.make(recorder: recorder))
        runtime.submit(.core(.mqttConnected))
        let loop = try ShellThread { runtime.run() }
        defer { runtime.submit(.stopRequested); loop.join() }
        var sentAtMs: [Int64] = []
        for index in 1...8 {
            sentAtMs.append(MonotonicClock.nowMs())
            runtime.submit(BridgeRuntimeTests.press("feed\(index)", kind: "button", id: "u\(index)"))
            usleep(20_000)
        }
        #expect(ports.published.wait(timeoutMs: 10_000, until: { list in
            (1...8).allSatisfy { index in list.contains { $0.topic == "home/feeder\(index)/cmd" } }
        }))
        for index in 1...8 {
            let atMs = try #require(ports.publishedAtMs("home/feeder\(index)/cmd").first)
            let waitedMs = atMs - sentAtMs[index - 1]
            #expect(waitedMs <= Int64(2 * Self.syncMs + 150), "press \(index) waited \(waitedMs) ms")
        }
        #expect(ports.syncs.withLock { $0 } <= 3, "group commit: \(ports.syncs.withLock { $0 }) syncs for 8 presses")
        #expect(Set(store.liveEvents.map(\.id)) == Set((1...8).map { "u\($0)" }))
    }

    /// With the daemon's real loop (waiting in poll, no idle wake): a record
    /// finished on the syncing thread wakes the loop, so the press's command
    /// goes out after its sync, not at the loop's next unrelated wake.
    @Test func aFinishedRecordWakesTheLoop() throws {
        let directory = try TemporaryDirectory(prefix: "slow-disk")
        defer { directory.remove() }
        let ports = Ports()
        let (recorder, _) = try Self.slowRecorder(directory, ports)
        defer { recorder.stop() }
        let eventLoop = try EventLoop()
        let runtime = BridgeRuntime(bridge: Bridge(config: BridgeRuntimeTests.config), ports: ports.make(recorder: recorder),
                                    loop: eventLoop)
        runtime.submit(.core(.mqttConnected))
        let loop = try ShellThread { runtime.run() }
        defer { runtime.submit(.stopRequested); loop.join() }
        let sentAtMs = MonotonicClock.nowMs()
        runtime.submit(BridgeRuntimeTests.press("feed", kind: "button", id: "u1"))
        #expect(ports.published.wait(timeoutMs: 5_000, until: { $0.contains { $0.topic == "home/feeder/cmd" } }))
        let atMs = try #require(ports.publishedAtMs("home/feeder/cmd").first)
        #expect(atMs - sentAtMs < Int64(Self.syncMs + 300), "sent \(atMs - sentAtMs) ms after the press")
    }
}
