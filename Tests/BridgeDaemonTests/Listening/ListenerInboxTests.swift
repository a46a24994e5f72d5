@testable import BridgeDaemon
import BridgeCore
import MQTTShell
import ShellSupport
import Testing

/// `watch` and `discover` use the daemon's inbox, bounded in bytes: a flood of
/// large retained messages waits in TCP, not in memory (issue 23: `discover`
/// under 20 × 8 MiB announcements peaked at ~500 MB; `watch` held 1,024 events of
/// any size).
@Suite("watch's and discover's inbox")
struct ListenerInboxTests {
    static let settings = MQTTShell.MQTTSettings(host: "127.0.0.1", port: 1, clientId: "listener-inbox-test")

    /// Feeds `count` messages of `payloadBytes` to `listener` before its loop runs,
    /// then returns how many it handed over and how many it said were dropped.
    static func flood(_ listener: MQTTListener, count: Int, payloadBytes: Int) -> (messages: Int, dropped: Int, connected: Bool) {
        let payload = [UInt8](repeating: 0x20, count: payloadBytes)
        listener.receive(.connected)
        for index in 0..<count {
            listener.receive(.message(MQTTMessage(topic: "z\(index)/bridge/devices", payload: payload, isRetained: true)))
        }
        listener.receive(.disconnected(reason: "test"))
        var messages = 0, dropped = 0, connected = false
        let nowMs = MonotonicClock.nowMs()
        listener.run(deadlineMs: { nowMs }) { event in
            switch event {
            case .message: messages += 1
            case .dropped(let count): dropped += count
            case .mqtt(.connected): connected = true
            default: break
            }
            return true
        }
        return (messages, dropped, connected)
    }

    @Test func discoverHoldsTwoOfTheLargestAnnouncementsAndCountsTheRest() {
        let result = Self.flood(DiscoveryListener.listener(Self.settings), count: 20, payloadBytes: DiscoverySession.maxPayloadBytes - 64)
        #expect(result.messages == 2)
        #expect(result.dropped == 18)
        #expect(result.connected, "a connect is never dropped")
    }

    @Test func watchHoldsWhatTheDaemonHoldsInBytes() {
        let result = Self.flood(WatchRunner.listener(Self.settings), count: 30, payloadBytes: 1 << 20)
        #expect(result.messages == 8, "8 MiB + 64 KiB hold eight 1 MiB messages")
        #expect(result.messages + result.dropped == 30)
        #expect(result.connected)
    }

    @Test func aStopEndsTheLoopAtOnce() {
        let listener = WatchRunner.listener(Self.settings)
        listener.receive(.message(MQTTMessage(topic: "a", payload: [1], isRetained: false)))
        listener.requestStop()
        listener.requestStop()
        listener.receive(.message(MQTTMessage(topic: "b", payload: [2], isRetained: false)))
        var seen: [String] = []
        listener.run(deadlineMs: { nil }) { event in
            switch event {
            case .message(let topic, _): seen.append(topic); return true
            case .stopRequested: seen.append("stop"); return false
            default: return true
            }
        }
        #expect(seen == ["a", "stop"])
    }
}
