import struct BridgeCore.MQTTRefusal
import Foundation
import MQTTShell
import Testing
import TestSupport

/// An MQTTClient under test with its events recorded.
final class RecordedMQTTClient: @unchecked Sendable {
    let events = Recorder<MQTTEvent>()
    let client: MQTTClient

    init(
        port: Int, host: String = "127.0.0.1", statusTopic: String? = "bridge/status", username: String? = nil, password: String? = nil,
        subscriptions: Set<String> = [], protocolVersion: MQTTSettings.ProtocolVersion = .v311, tls: MQTTSettings.TLS? = nil,
        configure: (inout MQTTSettings) -> Void = { _ in }
    ) throws {
        var settings = MQTTSettings(host: host, port: port, clientId: "test-\(UUID().uuidString)")
        settings.protocolVersion = protocolVersion
        settings.tls = tls
        settings.username = username
        settings.password = password
        settings.status = statusTopic.map { MQTTSettings.Status(topic: $0) }
        settings.reconnectDelayMinMs = 100
        settings.reconnectDelayMaxMs = 500
        settings.fatalRetryDelayMs = 200
        configure(&settings)
        let recorder = events
        client = MQTTClient(settings: settings) { recorder.append($0) }
        try client.setSubscriptions(subscriptions)
    }

    var fatalReasons: [String] {
        events.values.compactMap { if case .fatal(let reason) = $0 { reason } else { nil } }
    }

    var refusals: [MQTTRefusal] {
        events.values.compactMap { if case .refused(let refusal) = $0 { refusal } else { nil } }
    }

    var disconnectReasons: [String] {
        events.values.compactMap { if case .disconnected(let reason) = $0 { reason } else { nil } }
    }

    var connectedCount: Int { events.values.filter { $0 == .connected }.count }

    func messages(on topic: String) -> [MQTTMessage] {
        events.values.compactMap { event in
            if case .message(let message) = event, message.topic == topic { return message }
            return nil
        }
    }

    func payloads(on topic: String) -> [String] {
        messages(on: topic).map { String(decoding: $0.payload, as: UTF8.self) }
    }
}

@Suite("MQTTClient against a real mosquitto")
struct MQTTClientTests {
    @Test func connectsSubscribesPublishesAndSeesRetained() throws {
        let broker = try MosquittoBroker()
        let directory = broker.directory
        try MosquittoCLI.publish(port: broker.port, topic: "dev/kept/state", payload: "ON", retain: true, directory: directory)
        let subscriber = try MosquittoSubscriber(port: broker.port, topics: ["cmd/#"], directory: directory)
        let recorded = try RecordedMQTTClient(port: broker.port, subscriptions: ["dev/+/state"])
        try recorded.client.start()
        defer { recorded.client.stop() }

        #expect(waitUntil { recorded.connectedCount == 1 })
        #expect(waitUntil { recorded.messages(on: "dev/kept/state").first?.isRetained == true })
        try MosquittoCLI.publish(port: broker.port, topic: "dev/live/state", payload: "OFF", directory: directory)
        #expect(waitUntil { recorded.messages(on: "dev/live/state").map(\.isRetained) == [false] })
        #expect(recorded.payloads(on: "dev/live/state") == ["OFF"])

        try recorded.client.publish(topic: "cmd/lamp", payload: Array("toggle".utf8), qos: .atLeastOnce, retain: false)
        #expect(waitUntil { subscriber.payloads(on: "cmd/lamp") == ["toggle"] })
        #expect(try MosquittoCLI.retainedPayload(port: broker.port, topic: "bridge/status", directory: directory) == "online")
    }

    @Test func subscriptionsChangeWhileConnected() throws {
        let broker = try MosquittoBroker()
        let recorded = try RecordedMQTTClient(port: broker.port, subscriptions: ["a/state"])
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { recorded.connectedCount == 1 })
        try MosquittoCLI.publish(port: broker.port, topic: "b/state", payload: "0", retain: true, directory: broker.directory)

        try recorded.client.setSubscriptions(["b/state"])
        // The change goes out on the client's loop (UNSUBSCRIBE a/state, then SUBSCRIBE
        // b/state), and the broker handles one connection's packets in order: once
        // b/state's retained message has arrived, the UNSUBSCRIBE was handled too.
        // Publishing before that raced the change.
        #expect(waitUntil { recorded.payloads(on: "b/state") == ["0"] })
        try MosquittoCLI.publish(port: broker.port, topic: "a/state", payload: "1", directory: broker.directory)
        try MosquittoCLI.publish(port: broker.port, topic: "b/state", payload: "2", directory: broker.directory)
        #expect(waitUntil { recorded.payloads(on: "b/state") == ["0", "2"] })
        #expect(recorded.payloads(on: "a/state").isEmpty)
    }

    @Test func resubscribesAndRepublishesOnlineAfterBrokerRestart() throws {
        let broker = try MosquittoBroker()
        let recorded = try RecordedMQTTClient(port: broker.port, subscriptions: ["dev/state"])
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { recorded.connectedCount == 1 })

        try broker.restart()
        #expect(waitUntil { recorded.connectedCount == 2 })
        #expect(recorded.events.values.contains { if case .disconnected = $0 { true } else { false } })
        #expect(waitUntil { (try? MosquittoCLI.retainedPayload(port: broker.port, topic: "bridge/status", directory: broker.directory)) == "online" })
        try MosquittoCLI.publish(port: broker.port, topic: "dev/state", payload: "after", directory: broker.directory)
        #expect(waitUntil { recorded.payloads(on: "dev/state") == ["after"] })
    }

    @Test func connectsOnceTheBrokerComesUpAfterStart() throws {
        let broker = try MosquittoBroker()
        broker.stop()
        let recorded = try RecordedMQTTClient(port: broker.port)
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { recorded.events.values.contains { if case .disconnected = $0 { true } else { false } } })
        #expect(throws: MQTTError.self) {
            try recorded.client.publish(topic: "cmd/x", payload: [1], qos: .atLeastOnce, retain: false)
        }

        try broker.start()
        #expect(waitUntil { recorded.connectedCount == 1 })
        #expect(!recorded.events.values.contains { if case .fatal = $0 { true } else { false } })
    }

    @Test func brokerPublishesTheWillWhenTheConnectionDies() throws {
        let broker = try MosquittoBroker()
        let subscriber = try MosquittoSubscriber(port: broker.port, topics: ["bridge/status"], directory: broker.directory)
        let recorded = try RecordedMQTTClient(port: broker.port)
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { subscriber.payloads(on: "bridge/status") == ["online"] })

        recorded.client.dropConnectionAbruptly()
        #expect(waitUntil { subscriber.payloads(on: "bridge/status").starts(with: ["online", "offline", "online"]) })
    }

    @Test func cleanStopLeavesOfflineRetained() throws {
        let broker = try MosquittoBroker()
        let recorded = try RecordedMQTTClient(port: broker.port)
        try recorded.client.start()
        #expect(waitUntil { recorded.connectedCount == 1 })

        recorded.client.stop()
        #expect(!recorded.client.isConnected)
        #expect(try MosquittoCLI.retainedPayload(port: broker.port, topic: "bridge/status", directory: broker.directory) == "offline")
    }

    /// Issue 22 item 6: a wrong password and a missing username are refusals of the
    /// login (mosquitto 2 answers "not authorized" to both, in 3.1.1 and 5), told apart
    /// from other fatal errors, retried after the delay they carry.
    @Test(arguments: [(MQTTSettings.ProtocolVersion.v311, "bridge" as String?), (.v5, "bridge"), (.v311, nil), (.v5, nil)])
    func refusedCredentialsAreReportedAsRefusalsAndRetried(protocolVersion: MQTTSettings.ProtocolVersion, username: String?) throws {
        let broker = try MosquittoBroker(credentials: .init(username: "bridge", password: "s3cret-pass"))
        let refused = try RecordedMQTTClient(port: broker.port, username: username, password: username.map { _ in "wrong-pass" },
                                             protocolVersion: protocolVersion)
        try refused.client.start()
        defer { refused.client.stop() }
        #expect(waitUntil { refused.refusals.count >= 2 })
        #expect(refused.fatalReasons.isEmpty, "\(refused.fatalReasons)")
        #expect(refused.refusals.allSatisfy { $0.isAboutLogin && !$0.brokerText.contains("wrong-pass") }, "\(refused.refusals)")
        #expect((100...200).contains(refused.refusals.first?.retryDelayMs ?? 0), "\(refused.refusals)")
        #expect((200...400).contains(refused.refusals.dropFirst().first?.retryDelayMs ?? 0), "doubling: \(refused.refusals)")

        let accepted = try RecordedMQTTClient(port: broker.port, username: "bridge", password: "s3cret-pass")
        try accepted.client.start()
        defer { accepted.client.stop() }
        #expect(waitUntil { accepted.connectedCount == 1 })
    }

    @Test func startingTwiceOrStoppingTwiceIsHarmless() throws {
        let broker = try MosquittoBroker()
        let recorded = try RecordedMQTTClient(port: broker.port)
        try recorded.client.start()
        #expect(throws: MQTTError.self) { try recorded.client.start() }
        recorded.client.stop()
        recorded.client.stop()
    }

    @Test func speaksMQTT5() throws {
        let broker = try MosquittoBroker()
        let recorded = try RecordedMQTTClient(port: broker.port, subscriptions: ["dev/state"], protocolVersion: .v5)
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { recorded.connectedCount == 1 })
        try MosquittoCLI.publish(port: broker.port, topic: "dev/state", payload: "v5", directory: broker.directory)
        #expect(waitUntil { recorded.payloads(on: "dev/state") == ["v5"] })
    }

    /// The Maximum Packet Size reaches the broker through the asynchronous connect
    /// (MQTTClient+Loop's `connect`): mosquitto then never sends the big message, so the
    /// client never even sees it (with 3.1.1 it would arrive and be dropped as too large).
    @Test func mqtt5TellsTheBrokerThePayloadLimit() throws {
        let broker = try MosquittoBroker()
        let recorded = try RecordedMQTTClient(port: broker.port, subscriptions: ["dev/state"], protocolVersion: .v5) {
            $0.maxPayloadBytes = 2_048
        }
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { recorded.connectedCount == 1 })
        let big = String(repeating: "x", count: 100_000)
        try MosquittoCLI.publish(port: broker.port, topic: "dev/state", payload: big, directory: broker.directory)
        try MosquittoCLI.publish(port: broker.port, topic: "dev/state", payload: "after", directory: broker.directory)
        #expect(waitUntil { recorded.payloads(on: "dev/state").contains("after") })
        #expect(recorded.payloads(on: "dev/state") == ["after"])
        #expect(!recorded.events.values.contains { if case .payloadTooLarge = $0 { true } else { false } }, "never sent")
    }

    @Test func unresolvableHostIsFatalAndRetried() throws {
        let recorded = try RecordedMQTTClient(port: 1883, host: "nonexistent-host.invalid")
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { recorded.fatalReasons.count >= 2 })
        #expect(recorded.connectedCount == 0)
    }

    @Test func connectsOverTLSWithTheCAFile() throws {
        let broker = try MosquittoBroker(useTLS: true)
        let caFile = try #require(broker.certificates?.caFile)
        let recorded = try RecordedMQTTClient(port: broker.port, tls: MQTTSettings.TLS(caFile: caFile))
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { recorded.connectedCount == 1 })
    }

    @Test func untrustedBrokerCertificateIsFatal() throws {
        let broker = try MosquittoBroker(useTLS: true)
        let otherAuthority = try TestCertificates(directory: broker.directory, name: "other")
        let recorded = try RecordedMQTTClient(port: broker.port, tls: MQTTSettings.TLS(caFile: otherAuthority.caFile))
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { !recorded.fatalReasons.isEmpty })
        #expect(recorded.connectedCount == 0)
        // Issue 19 item 18: which TLS failure, with its fix (was "A TLS error occurred.").
        let reason = try #require(recorded.fatalReasons.first)
        #expect(reason.contains("certificate chain is not trusted by the CA in mqtt.tls.ca_file \(otherAuthority.caFile)"), "\(reason)")
        #expect(!reason.contains("host name"), "\(reason)")
    }

    /// Issue 19 item 18: a trusted certificate for another name is said as such.
    @Test func aCertificateForAnotherHostIsSaidAsAHostNameMismatch() throws {
        let broker = try MosquittoBroker(useTLS: true, serverNames: ["DNS:broker.elsewhere.example"])
        let caFile = try #require(broker.certificates?.caFile)
        let recorded = try RecordedMQTTClient(port: broker.port, tls: MQTTSettings.TLS(caFile: caFile))
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { !recorded.fatalReasons.isEmpty })
        #expect(recorded.connectedCount == 0)
        let reason = try #require(recorded.fatalReasons.first)
        #expect(reason.contains("does not name '127.0.0.1' (host name verification failed)"), "\(reason)")
        #expect(!reason.contains("not trusted"), "\(reason)")
    }

    /// Issue 12, item 1: no CA file means the system's trust store, which does not
    /// hold the test CA: refused (proof that the certificate is verified).
    @Test func withoutACAFileTheSystemStoreVerifiesTheBroker() throws {
        let broker = try MosquittoBroker(useTLS: true)
        let recorded = try RecordedMQTTClient(port: broker.port, tls: MQTTSettings.TLS())
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { !recorded.fatalReasons.isEmpty })
        #expect(recorded.connectedCount == 0)
    }

    /// `insecure` connects to a broker whose certificate nobody vouches for.
    @Test(arguments: [nil, "other"] as [String?])
    func insecureSkipsVerification(caName: String?) throws {
        let broker = try MosquittoBroker(useTLS: true)
        let caFile = try caName.map { try TestCertificates(directory: broker.directory, name: $0).caFile }
        let recorded = try RecordedMQTTClient(port: broker.port, tls: MQTTSettings.TLS(caFile: caFile, insecure: true))
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { recorded.connectedCount == 1 })
    }

    @Test func missingCAFileFailsAtStart() throws {
        let recorded = try RecordedMQTTClient(port: 1883, tls: MQTTSettings.TLS(caFile: "/nonexistent/ca.crt"))
        #expect(throws: MQTTError.self) { try recorded.client.start() }
    }
}
