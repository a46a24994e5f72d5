import Foundation
import Testing
import TestSupport

/// Issue 19 item 4, against the real binary: a 3.1.1-only broker (the default config
/// falls back to it) sending 20,000 QoS 2 PUBLISHes of 60 KB without PUBREL took the
/// daemon to 1.19 GB and `discover` to 491 MB: libmosquitto kept every one. Now the
/// first QoS 2 PUBLISH (above the QoS 1 subscribed with) ends the connection before
/// its PUBREC, so neither answers (nor keeps) any of them.
@Suite("A QoS 2 flood without PUBREL (real binary)", .serialized)
struct QoS2FloodHostileTests {
    @Test func theDaemonClosesTheConnectionAndStaysSmall() throws {
        let world = try EndToEndHarness()
        let flood = try FakeMQTTBroker(mode: .qos2Flood, floodCount: 20_000, floodBytes: 60_000)
        try ProtocolFallbackDaemonTests.point(world, at: flood, protocolLine: "")
        try world.startBridge(waitForFirstPublish: false)
        let pid = try #require(world.bridge?.pid)
        #expect(world.waitForLog("protocol violation: the broker sent a QoS 2 message", timeoutSeconds: 20), "\(world.log.suffix(2_000))")
        #expect(waitUntil(timeoutSeconds: 30) { flood.floodConnectionsEnded >= 1 }, "sent \(flood.floodPublishesSent)")
        let peakKB = try MQTTFloodTests.peakMemoryKB(pid: pid)
        print("QoS 2 flood: daemon VmHWM \(peakKB) kB; broker sent \(flood.floodPublishesSent), PUBRECs \(flood.floodPubrecsReceived)")
        // Without the bound: 20,000 PUBRECs and VmHWM 1.19 GB.
        #expect(flood.floodPubrecsReceived == 0, "PUBRECs \(flood.floodPubrecsReceived)")
        #expect(peakKB < 64 * 1_024, "VmHWM \(peakKB) kB")
        #expect(world.log.contains("recreating the client"))
        #expect(world.bridge?.isRunning == true)
    }

    @Test func discoverClosesTheConnectionAndStaysSmall() throws {
        let flood = try FakeMQTTBroker(mode: .qos2Flood, floodCount: 20_000, floodBytes: 60_000)
        let directory = try TemporaryDirectory(prefix: "discover-qos2")
        defer { directory.remove() }
        // Listens long enough for the 3.1.1 fallback and the flood under any load;
        // stopped once the flooded connection has ended.
        let process = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable,
            arguments: ["discover", "--port", "\(flood.port)", "--seconds", "120", "--output", directory.file("bridge.yaml")],
            directory: directory.path, name: "discover", environment: ["PATH": "/usr/bin:/bin"])
        defer { process.stop() }
        #expect(waitUntil(timeoutSeconds: 90) { flood.floodConnectionsEnded >= 1 || !process.isRunning },
                "levels \(flood.connectLevels), sent \(flood.floodPublishesSent); \(process.stderr)")
        #expect(flood.floodConnectionsEnded >= 1, "levels \(flood.connectLevels), sent \(flood.floodPublishesSent); \(process.stderr)")
        #expect(process.isRunning, "discover ended early: \(process.stderr)")
        // The peak is read while discover still runs (its rusage at the exit would
        // carry this test runner's peak: ChildProcess.peakMemoryKB).
        let peakKB = try #require(process.peakMemoryKB, "discover ended: \(process.stderr)")
        process.stop()
        print("QoS 2 flood: discover peak RSS \(peakKB) kB; broker sent \(flood.floodPublishesSent), PUBRECs \(flood.floodPubrecsReceived)")
        #expect(flood.floodPubrecsReceived == 0, "PUBRECs \(flood.floodPubrecsReceived)")
        #expect(peakKB < 64 * 1_024, "peak RSS \(peakKB) kB")
    }
}
