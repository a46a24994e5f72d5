import Foundation
import Testing
import TestSupport

/// Issue 19 item 18, against the real binary: a broker that accepts every connection
/// and drops it at once (a connection limit, an ACL, a crash loop). The bridge backs
/// off between connections as between failed attempts (before: every 500 ms forever,
/// each connect resetting the backoff). The backoff's rules (the floors, the growth,
/// the 30 s cap, a short connection counted as a failure, a stable one starting over)
/// are asserted on the simulated clock, `MQTTReconnectUnderSimulationTests` (issue 42
/// §4); here what the binary adds: it backs off from its first connections (3, the
/// gaps at least their floors and growing), its lines are bounded and said once, its
/// status endpoint answers and a stop is prompt, and its memory does not grow.
@Suite("A broker that keeps dropping the connection (real binary)", .serialized)
struct BrokerDropsHostileTests {
    @Test func theBridgeBacksOffLogsBoundedLinesAndStaysResponsiveAndSmall() throws {
        let statusPort = try LoopbackPort.free()
        let dropper = try FakeMQTTBroker(mode: .dropsAfterConnack)
        let world = try HostileWorld(script: [:], extraConfig: "status:\n  listen: 127.0.0.1:\(statusPort)")
        let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
            .replacingOccurrences(of: "  port: \(world.broker.port)\n", with: "  port: \(dropper.port)\n")
        try config.write(toFile: world.configPath, atomically: true, encoding: .utf8)
        try world.startBridge(logLevel: "info")
        let pid = try #require(world.bridgePID)

        #expect(waitUntil(timeoutSeconds: 20) { dropper.acceptedAtMs.count >= 2 || !world.isBridgeRunning }, "\(world.log)")
        let memoryAfterTwoKB = try MQTTFloodTests.memoryKB(pid: pid, field: "VmRSS")
        // Each drop a failed attempt: the waits 0.5-1 s, then 1-2 s (a gap is its wait plus
        // the connection's own time, so never shorter). Without the backoff: every gap
        // 250-500 ms.
        #expect(waitUntil(timeoutSeconds: 20) { dropper.acceptedAtMs.count >= 3 || !world.isBridgeRunning }, "\(world.log)")
        let accepted = dropper.acceptedAtMs
        let gapsMs = zip(accepted.dropFirst(), accepted).map { $0 - $1 }
        print("dropping broker: connections \(accepted.count), gaps \(gapsMs) ms")
        #expect(gapsMs.count >= 2 && gapsMs[0] >= 500 && gapsMs[1] >= 1_000, "gaps at least their floors: \(gapsMs) ms")
        #expect(gapsMs.count >= 2 && gapsMs[1] >= gapsMs[0] - 100, "gaps grow (up to scheduling): \(gapsMs) ms")

        for _ in 0..<5 {
            let code = try StatusSlowlorisTests.run(["/bin/bash", "-c",
                "curl -sS --max-time 5 -o /dev/null -w %{http_code} http://127.0.0.1:\(statusPort)/healthz 2>&1"])
            #expect(code == "200" || code == "503", "the status endpoint answered \(code)")
        }
        let memoryAfterKB = try MQTTFloodTests.memoryKB(pid: pid, field: "VmRSS")
        let peakKB = try MQTTFloodTests.peakMemoryKB(pid: pid)
        print("dropping broker: VmRSS \(memoryAfterTwoKB) kB after 2 connections, \(memoryAfterKB) kB after \(accepted.count); VmHWM \(peakKB) kB")
        #expect(memoryAfterKB - memoryAfterTwoKB < 2_048, "VmRSS \(memoryAfterTwoKB) -> \(memoryAfterKB) kB")
        #expect(peakKB < 64 * 1_024)

        let lines = world.log.split(separator: "\n")
        // Each kind of line at most 5 a minute (the log's limit per kind).
        for kind in ["mqtt 127.0.0.1:\(dropper.port) disconnected", "mqtt disconnected; presses", "publish to zigbee2mqtt/porch/get failed"] {
            #expect(lines.filter { $0.contains(kind) }.count <= 5, "'\(kind)' rate-limited: \(world.log)")
        }
        #expect(lines.filter { $0.contains("drops this connection") }.count <= 1, "said once per streak")
        #expect(lines.count < 40, "\(lines.count) lines: \(world.log)")
        #expect(lines.allSatisfy { $0.utf8.count <= 4_096 })

        world.bridge?.send(SIGTERM)
        #expect(world.bridge?.waitForExit(timeoutSeconds: 10) == 0, "a prompt stop: \(world.log.suffix(1_000))")
    }

    /// The backoff keeps what two bridges with one client id say: the one backing off is
    /// dropped within a second each time (the other reconnects at once), so it says so.
    /// With a 10 s threshold for "short", both backed off to seconds and neither said it.
    @Test func twoBridgesWithOneClientIdStillSayIt() throws {
        let first = try HostileWorld(script: [:])
        let second = try HostileWorld(script: [:], brokerOverride: first.broker)
        try first.startBridge(logLevel: "info")
        #expect(first.waitForLog("mqtt connected", timeoutSeconds: 15), "\(first.log)")
        try second.startBridge(logLevel: "info")
        let said = "client_id bridge-under-attack (give each bridge its own mqtt.client_id)"
        #expect(waitUntil(timeoutSeconds: 40) { first.log.contains(said) || second.log.contains(said) },
                "first: \(first.log.suffix(1_500))\nsecond: \(second.log.suffix(1_500))")
    }
}
