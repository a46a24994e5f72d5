import Foundation
@testable import MQTTShell
import ShellSupport
import Testing
import TestSupport

/// Issue 23: TCP_QUICKACK (the delayed-ACK fix of the press latency behind a broker
/// with Nagle's algorithm on) is set after each read of the socket, where the ACK of
/// a PUBACK goes out; a publish sets none of its own (two setsockopt calls a press
/// that changed nothing).
@Suite("MQTT: quick ACKs after reads, none per publish")
struct MQTTQuickAckTests {
    @Test func aPublishSetsNoQuickAckOfItsOwnAndTheReadOfItsAcknowledgementDoes() throws {
        let broker = try MosquittoBroker()
        let loop = try EventLoop()
        let settings = MQTTSettings(host: "127.0.0.1", port: broker.port, clientId: "quickack-\(UUID().uuidString)")
        let client = MQTTClient(settings: settings) { _ in }
        try client.start(on: loop)
        defer { client.stop() }
        // The caller's loop turns on this thread only: nothing is read between the publishes.
        #expect(waitUntil { loop.turn(timeoutMs: 10); return client.isConnected })
        let before = client.socketReadPasses
        for index in 0..<3 {
            try client.publish(topic: "quickack/\(index)", payload: Array("\(index)".utf8), qos: .atLeastOnce, retain: false)
        }
        #expect(client.socketReadPasses == before)
        #expect(waitUntil { loop.turn(timeoutMs: 10); return client.socketReadPasses > before })
    }
}
