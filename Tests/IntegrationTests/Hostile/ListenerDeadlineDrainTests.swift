@testable import BridgeDaemon
import BridgeCore
import Foundation
import MQTTShell
import ShellSupport
import Testing
import TestSupport

/// Issue 42 item 1 (left over): `discover` translates on the thread that reads
/// (the one loop), so its listening window includes its own translation time; on
/// a loaded machine it stopped at the deadline with what the broker had already
/// sent still unread on the socket (four 3.9 MiB device lists: 3 s heard two). At
/// the deadline the listener now reads on, within bounds, until the socket is quiet.
@Suite("watch's and discover's loop at its deadline (real mosquitto)", .serialized)
struct ListenerDeadlineDrainTests {
    static func settings(port: Int, name: String) -> MQTTShell.MQTTSettings {
        MQTTShell.MQTTSettings(host: "127.0.0.1", port: port, clientId: "listener-drain-\(name)-\(getpid())")
    }

    /// Handling the first message (a slow translation, here: until the deadline has
    /// passed) keeps three messages the broker sent meanwhile on the socket. Before:
    /// the loop ended at the deadline without reading them, however long the handling
    /// took (no timing in the failure: nothing is read while the handler runs).
    @Test func whatTheBrokerSentWhileAMessageWasHandledIsReadAtTheDeadline() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try TemporaryDirectory(prefix: "listener-drain")
        defer { directory.remove() }
        try MosquittoCLI.publish(port: broker.port, topic: "drain/first", payload: "1", retain: true, directory: directory)
        let listener = DiscoveryListener.listener(Self.settings(port: broker.port, name: "late"))
        try listener.start(subscribingTo: ["drain/#"])
        defer { listener.stop() }
        let connectDeadlineMs = MonotonicClock.nowMs() + 10_000
        var listenDeadlineMs: Int64?
        var topics: [String] = []
        listener.run(deadlineMs: { listenDeadlineMs ?? connectDeadlineMs }, drain: DiscoveryListener.deadlineDrain) { event in
            switch event {
            case .mqtt(.connected):
                if listenDeadlineMs == nil { listenDeadlineMs = MonotonicClock.nowMs() + 1_000 }
            case .message(let topic, _):
                topics.append(topic)
                guard topic == "drain/first" else { break }
                // QoS 1: each is on the broker (and on its way to this client) when mosquitto_pub returns.
                for index in 1...3 {
                    try? MosquittoCLI.publish(port: broker.port, topic: "drain/late\(index)", payload: "\(index)", directory: directory)
                }
                _ = waitUntil(timeoutSeconds: 30) { MonotonicClock.nowMs() > listenDeadlineMs ?? connectDeadlineMs }
            default: break
            }
            return true
        }
        #expect(topics == ["drain/first", "drain/late1", "drain/late2", "drain/late3"])
    }

    /// A broker that keeps sending past the deadline: the listener reads on only up to
    /// the drain's bytes, then returns (the flood still going).
    @Test func aFloodPastTheDeadlineIsReadOnlyUpToTheDrainsBytes() throws {
        let drain = MQTTListener.DeadlineDrain(quietMs: 300, maxBytes: 1 << 20, maxMs: 60_000)
        let result = try Self.listenThroughFlood(drain: drain)
        #expect(result.floodWasRunning, "the flood ended before the drain did: nothing was bounded")
        // What was queued at the deadline (at most the inbox's 256 KiB) and the drain's
        // 1 MiB, overrun by at most one batch (the inbox's bytes again).
        #expect(result.bytesAfterDeadline <= (1 << 20) + 2 * Self.floodInboxBytes, "\(result.bytesAfterDeadline) bytes")
        #expect(result.bytesAfterDeadline >= 1 << 20, "the drain ended before its bytes: \(result.bytesAfterDeadline)")
        #expect(result.msAfterDeadline < 30_000, "\(result.msAfterDeadline) ms")
    }

    /// And only up to the drain's time, however many bytes it would take.
    @Test func aFloodPastTheDeadlineIsReadOnlyUpToTheDrainsTime() throws {
        let drain = MQTTListener.DeadlineDrain(quietMs: 300, maxBytes: Int.max, maxMs: 1_000)
        let result = try Self.listenThroughFlood(drain: drain)
        #expect(result.floodWasRunning, "the flood ended before the drain did: nothing was bounded")
        // The drain's second, and one turn and one batch over it on a loaded machine.
        #expect(result.msAfterDeadline >= 1_000, "the drain ended before its time: \(result.msAfterDeadline) ms")
        #expect(result.msAfterDeadline < 5_000, "\(result.msAfterDeadline) ms")
    }

    static let floodInboxBytes = 256 << 10

    /// Listens 500 ms into a flood of 60 KB messages at QoS 0 (mosquitto_pub repeating,
    /// stopped by PID), with `drain` at the deadline; a guard ends the run after 30 s.
    static func listenThroughFlood(drain: MQTTListener.DeadlineDrain) throws
        -> (bytesAfterDeadline: Int, msAfterDeadline: Int64, floodWasRunning: Bool) {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try TemporaryDirectory(prefix: "listener-flood")
        defer { directory.remove() }
        let payload = String(repeating: "x", count: 60_000)
        let flood = try ChildProcess(
            executable: "/usr/bin/mosquitto_pub",
            arguments: ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "flood/x", "-q", "0", "-m", payload, "--repeat", "10000000"],
            directory: directory.path, name: "flood")
        defer { flood.stop(graceSeconds: 2) }
        let listener = MQTTListener(settings: settings(port: broker.port, name: "flood"), maxQueuedMessages: 64, maxQueuedBytes: floodInboxBytes)
        try listener.start(subscribingTo: ["flood/#"])
        defer { listener.stop() }
        let connectDeadlineMs = MonotonicClock.nowMs() + 10_000
        var listenDeadlineMs: Int64?
        var bytesAfterDeadline = 0
        listener.run(deadlineMs: { listenDeadlineMs ?? connectDeadlineMs }, drain: drain) { event in
            let nowMs = MonotonicClock.nowMs()
            switch event {
            case .mqtt(.connected):
                if listenDeadlineMs == nil { listenDeadlineMs = nowMs + 500 }
            case .message(let topic, let payload):
                // From the deadline's millisecond on: the drain starts in it.
                if let listenDeadlineMs, nowMs >= listenDeadlineMs { bytesAfterDeadline += topic.utf8.count + payload.count }
            default: break
            }
            return nowMs < (listenDeadlineMs ?? connectDeadlineMs) + 30_000
        }
        let msAfterDeadline = MonotonicClock.nowMs() - (listenDeadlineMs ?? connectDeadlineMs)
        print("flood past the deadline: \(bytesAfterDeadline) bytes handed over in \(msAfterDeadline) ms after it")
        return (bytesAfterDeadline, msAfterDeadline, flood.isRunning)
    }
}
