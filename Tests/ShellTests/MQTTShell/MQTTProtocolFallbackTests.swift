import Foundation
import MQTTShell
import Testing
import TestSupport

/// MQTT 5 by default, 3.1.1 when the broker refuses it (issue 12 item 3, F-oom), and
/// bounded connection attempts with a prompt stop (F-stop), against fake brokers that
/// a real mosquitto cannot imitate.
@Suite("MQTTClient: protocol fallback and bounded connecting")
struct MQTTProtocolFallbackTests {
    @Test func aV311OnlyBrokerRefusingV5IsSpokenTo311OnceAndSaysSo() throws {
        let broker = try FakeMQTTBroker(mode: .v311Only)
        let recorded = try RecordedMQTTClient(port: broker.port, subscriptions: ["dev/+/state"], protocolVersion: .v5) {
            $0.fallsBackToV311 = true
        }
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil(timeoutSeconds: 10) { recorded.connectedCount == 1 }, "\(recorded.events.values)")
        #expect(broker.connectLevels.prefix(2) == [5, 4], "one MQTT 5 CONNECT, then 3.1.1")
        let fallbacks = recorded.disconnectReasons.filter { $0.contains("3.1.1 from now on") }
        #expect(fallbacks.count == 1, "\(recorded.disconnectReasons)")
        #expect(fallbacks.first?.contains("message_size_limit") == true)
        #expect(recorded.fatalReasons.isEmpty)
    }

    @Test func anExplicitV5IsObeyedEvenWhenTheBrokerRefusesIt() throws {
        let broker = try FakeMQTTBroker(mode: .v311Only)
        let recorded = try RecordedMQTTClient(port: broker.port, protocolVersion: .v5)
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil(timeoutSeconds: 10) { recorded.refusals.count >= 2 }, "\(recorded.events.values)")
        #expect(recorded.refusals.first.map { !$0.isAboutLogin && $0.spokeMQTT5 } == true, "\(recorded.refusals)")
        #expect(recorded.connectedCount == 0)
        #expect(broker.connectLevels.allSatisfy { $0 == 5 }, "\(broker.connectLevels)")
    }

    @Test func aBrokerClosingEveryV5ConnectGetsThreeTriesThen311() throws {
        let broker = try FakeMQTTBroker(mode: .closesOnV5)
        let recorded = try RecordedMQTTClient(port: broker.port, protocolVersion: .v5) { $0.fallsBackToV311 = true }
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil(timeoutSeconds: 15) { recorded.connectedCount == 1 }, "\(recorded.events.values)")
        #expect(broker.connectLevels.prefix(4) == [5, 5, 5, 4], "\(broker.connectLevels)")
        #expect(recorded.disconnectReasons.contains { $0.contains("closed the connection 3 times") })
    }

    @Test(arguments: [MQTTSettings.ProtocolVersion.v311, .v5])
    func anUnreachableBrokerTimesOutEachAttemptAndStopsPromptly(protocolVersion: MQTTSettings.ProtocolVersion) throws {
        let broker = try FakeMQTTBroker(mode: .backlogFull)
        let recorded = try RecordedMQTTClient(port: broker.port, protocolVersion: protocolVersion) {
            $0.connectTimeoutMs = 1_000
            $0.fallsBackToV311 = true
        }
        try recorded.client.start()
        #expect(waitUntil(timeoutSeconds: 10) { recorded.disconnectReasons.contains { $0.contains("no answer within 1000 ms") } },
                "\(recorded.events.values)")
        let stopStartedAt = Date()
        recorded.client.stop()
        let stopMs = Int(Date().timeIntervalSince(stopStartedAt) * 1_000)
        #expect(stopMs < 2_500, "stop took \(stopMs) ms")
        #expect(recorded.connectedCount == 0)
    }
}
