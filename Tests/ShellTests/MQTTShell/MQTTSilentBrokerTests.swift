import Foundation
import Glibc
@testable import MQTTShell
import Testing
import TestSupport

/// Issue 38 item 2: a broker stopped with SIGSTOP keeps its TCP connections (the
/// kernel takes what is written) and answers nothing. The client finds it silent
/// within `MQTTClient.silentBrokerMs` of a packet it had to answer (3 s), reports
/// `.disconnected` (the core then answers presses at once), refuses publishes
/// meanwhile (nothing is queued for later) and drops the handle, so nothing it
/// had sent is sent again when the broker resumes. The broker is stopped and
/// continued by its PID, and continued again whatever happens.
@Suite("MQTT: a silent broker (SIGSTOP)", .serialized)
struct MQTTSilentBrokerTests {
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @Test func aPublishIntoAStalledBrokerIsFoundSilentAndNothingIsDeliveredTwice() throws {
        let broker = try MosquittoBroker()
        let subscriber = try MosquittoSubscriber(port: broker.port, topics: ["relay/#"], directory: broker.directory)
        let recorded = try RecordedMQTTClient(port: broker.port) { $0.keepAliveSeconds = 30 }
        try recorded.client.start()
        defer {
            broker.send(SIGCONT)
            recorded.client.stop()
        }
        #expect(waitUntil { recorded.connectedCount == 1 })
        try recorded.client.publish(topic: "relay/warmup", payload: Array("1".utf8), qos: .atLeastOnce, retain: false)
        #expect(waitUntil { subscriber.payloads(on: "relay/warmup") == ["1"] })

        broker.send(SIGSTOP)
        let stoppedAt = ContinuousClock.now
        // A pulse (QoS 0, followed by a probe) and an unlock (QoS 1) into the stall.
        try recorded.client.publish(topic: "relay/pulse", payload: Array("ON".utf8), qos: .atMostOnce, retain: false)
        try recorded.client.publish(topic: "relay/unlock", payload: Array("UNLOCK".utf8), qos: .atLeastOnce, retain: false)
        #expect(waitUntil(timeoutSeconds: 15) { !recorded.disconnectReasons.isEmpty })
        let foundAfterSeconds = Self.seconds(since: stoppedAt)
        #expect(foundAfterSeconds >= 2.9 && foundAfterSeconds < 5, "found silent after \(foundAfterSeconds) s (keepalive alone: 45 s)")
        #expect(recorded.disconnectReasons.first?.contains("the broker answered nothing for 3000 ms") == true,
                "\(recorded.disconnectReasons)")
        #expect(!recorded.client.isConnected)
        #expect(throws: MQTTError.self, "nothing is queued for a late delivery") {
            try recorded.client.publish(topic: "relay/pulse", payload: Array("ON-2".utf8), qos: .atMostOnce, retain: false)
        }

        broker.send(SIGCONT)
        #expect(waitUntil(timeoutSeconds: 15) { recorded.connectedCount == 2 })
        try recorded.client.publish(topic: "relay/marker", payload: Array("after".utf8), qos: .atLeastOnce, retain: false)
        #expect(waitUntil { subscriber.payloads(on: "relay/marker") == ["after"] })
        // What the stopped broker had read it passes on once; nothing is resent on the new connection.
        #expect(subscriber.payloads(on: "relay/pulse").filter { $0 == "ON-2" }.isEmpty)
        #expect(subscriber.payloads(on: "relay/pulse").count <= 1)
        #expect(subscriber.payloads(on: "relay/unlock").count <= 1, "\(subscriber.payloads(on: "relay/unlock"))")
    }

    /// An idle link is probed every `keepaliveCheckMs` (a quarter of the keepalive):
    /// a broker that stops while nothing is said is found within that plus 3 s.
    @Test func anIdleStalledBrokerIsFoundByAProbe() throws {
        let broker = try MosquittoBroker()
        let recorded = try RecordedMQTTClient(port: broker.port) { $0.keepAliveSeconds = 20 }
        try recorded.client.start()
        defer {
            broker.send(SIGCONT)
            recorded.client.stop()
        }
        #expect(waitUntil { recorded.connectedCount == 1 })
        broker.send(SIGSTOP)
        let stoppedAt = ContinuousClock.now
        #expect(waitUntil(timeoutSeconds: 20) { !recorded.disconnectReasons.isEmpty })
        let foundAfterSeconds = Self.seconds(since: stoppedAt)
        #expect(foundAfterSeconds < 5 + 3 + 1.5, "found after \(foundAfterSeconds) s (keepalive alone: 30 s)")
        broker.send(SIGCONT)
        #expect(waitUntil(timeoutSeconds: 15) { recorded.connectedCount == 2 })
    }
}
