import Foundation
import Testing
import TestSupport

/// F-stop (review session 3), against the real binary: with a broker host that drops
/// SYNs (a listener whose accept queue is full), each connection attempt ends after
/// the connect timeout with a logged reason, and SIGTERM ends the daemon within a few
/// seconds — far inside the unit's TimeoutStopSec=15s — whatever the protocol.
@Suite("Unreachable broker: bounded connecting, prompt stop (real binary)", .serialized)
struct UnreachableBrokerStopTests {
    @Test(arguments: ["3.1.1", "default"])
    func sigtermWhileConnectingToABrokerThatDropsSYNsExitsPromptly(protocolVersion: String) throws {
        let world = try EndToEndHarness()
        let blackHole = try FakeMQTTBroker(mode: .backlogFull)
        let protocolLine = protocolVersion == "default" ? "" : "  protocol: \"\(protocolVersion)\"\n"
        let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
            .replacingOccurrences(of: "  port: \(world.broker.port)\n", with: "  port: \(blackHole.port)\n" + protocolLine)
        try config.write(toFile: world.configPath, atomically: true, encoding: .utf8)
        try world.startBridge(waitForFirstPublish: false)
        let bridge = try #require(world.bridge)

        #expect(world.waitForLog("disconnected: no answer within", timeoutSeconds: 25), "\(world.log.suffix(2_000))")
        // Past the first timeout the next attempt is waiting or connecting again.
        let terminatedAt = Date()
        bridge.send(SIGTERM)
        let status = bridge.waitForExit(timeoutSeconds: 10)
        let stopSeconds = Date().timeIntervalSince(terminatedAt)
        #expect(status == 0, "\(world.log.suffix(2_000))")
        print("unreachable broker, protocol \(protocolVersion): exit \(stopSeconds) s after SIGTERM")
        #expect(stopSeconds < 4, "exit \(stopSeconds) s after SIGTERM (stop_grace_ms 2000)")
        #expect(!world.log.contains("3.1.1 from now on"), "an unreachable broker is no reason to fall back")
    }
}
