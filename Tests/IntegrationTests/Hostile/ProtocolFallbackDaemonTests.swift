import Foundation
import Testing
import TestSupport

/// F-oom (review session 3), against the real binary: with no `protocol` in the config
/// and a broker that only speaks 3.1.1, the bridge falls back, says so once (naming
/// the memory consequence) and connects; with an explicit `protocol: 5` it does not.
@Suite("MQTT protocol fallback (real binary)", .serialized)
struct ProtocolFallbackDaemonTests {
    @Test func theDefaultFallsBackTo311OnceAndConnects() throws {
        let world = try EndToEndHarness()
        let oldBroker = try FakeMQTTBroker(mode: .v311Only)
        try Self.point(world, at: oldBroker, protocolLine: "")
        try world.startBridge(waitForFirstPublish: false)
        #expect(world.waitForLog("mqtt connected", timeoutSeconds: 15), "\(world.log.suffix(2_000))")
        #expect(world.log.components(separatedBy: "speaking MQTT 3.1.1 from now on").count == 2, "logged once: \(world.log.suffix(2_000))")
        #expect(world.log.contains("message_size_limit"))
        #expect(oldBroker.connectLevels.prefix(2) == [5, 4], "\(oldBroker.connectLevels)")
    }

    @Test func anExplicitProtocol5IsNotDowngraded() throws {
        let world = try EndToEndHarness()
        let oldBroker = try FakeMQTTBroker(mode: .v311Only)
        try Self.point(world, at: oldBroker, protocolLine: "  protocol: \"5\"\n")
        try world.startBridge(waitForFirstPublish: false)
        #expect(world.waitForLog("refused the connection (the broker answered", timeoutSeconds: 15), "\(world.log.suffix(2_000))")
        #expect(!world.log.contains("from now on"))
        #expect(!world.log.contains("mqtt connected"))
        #expect(oldBroker.connectLevels.allSatisfy { $0 == 5 }, "\(oldBroker.connectLevels)")
    }

    static func point(_ world: EndToEndHarness, at broker: FakeMQTTBroker, protocolLine: String) throws {
        let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
            .replacingOccurrences(of: "  port: \(world.broker.port)\n", with: "  port: \(broker.port)\n" + protocolLine)
        try config.write(toFile: world.configPath, atomically: true, encoding: .utf8)
    }
}
