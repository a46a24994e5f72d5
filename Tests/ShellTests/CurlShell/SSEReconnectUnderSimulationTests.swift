import BridgeCore
import CCurl
@testable import CurlShell
import ShellSupport
import TestSupport
import Testing

/// Issue 12 item 4's rates on the simulated clock (issue 42 §4; they were 5 × 6 s
/// of wall clock against the binary, `EventStreamRetryHostileTests`): a hostile
/// server answers every connection 200 `text/event-stream`, sends `body` and hangs
/// up 5 ms later. Each connection is the client's own (`SSEConnection`: its
/// head, its parser, its `retry:`, its events, its age on the clock) and each
/// delay the client's own (`SSEReconnectSchedule`, with the daemon's settings);
/// only libcurl's transfer is left out.
@Suite("Event stream reconnects under the simulated clock")
struct SSEReconnectUnderSimulationTests {
    /// `retry: 0` and `retry: 1` are clamped to 500 ms, doubled per failed connection, the
    /// upper half jittered: the n-th gap between connects lasts 0.5 × 2ⁿ⁻¹ to 2ⁿ⁻¹ s (0.5-1,
    /// 1-2, 2-4 s): at least 3 connects in the 6 s after the first ends, each gap at least
    /// its floor and at least the gap before. One event before the hang-up does not make
    /// the stream healthy (session 3 review: 19 GETs in 7 s).
    @Test(arguments: ["retry: 0\n\n", "retry: 1\n\n", "retry: 1\nid: e1\ndata: x\n\n"], [1, 2, 3] as [UInt64])
    func aStreamThatHangsUpWithATinyRetryBacksOff(body: String, seed: UInt64) {
        let connects = HostileStreamPlay(body: body, seed: seed).connectTimesMs(forMs: 6_000)
        let gaps = zip(connects, connects.dropFirst()).map { $1 - $0 }
        #expect((3...8).contains(connects.count), "\(connects.count) connects in 6 s, gaps \(gaps)")
        let belowFloor = gaps.enumerated().filter { $0.element < Int64(500) << min($0.offset, 20) }
        #expect(belowFloor.isEmpty, "gaps below their floors (0.5, 1, 2 s...): \(belowFloor.map(\.element)) of \(gaps)")
        #expect(zip(gaps, gaps.dropFirst()).allSatisfy { $1 >= $0 }, "delays grow: gaps \(gaps)")
    }

    /// A huge `retry:` is clamped to 300 s: one connect in the first 6 s, and the next
    /// within 300 s (half of it fixed, the other half jittered): not never.
    @Test(arguments: ["retry: 9223372036854775807\n\n", "retry: 99999999999999999999999\n\n"], [1, 2, 3] as [UInt64])
    func aHugeRetryIsClampedToFiveMinutes(body: String, seed: UInt64) {
        let play = HostileStreamPlay(body: body, seed: seed)
        let connects = play.connectTimesMs(forMs: 300_000)
        let gaps = zip(connects, connects.dropFirst()).map { $1 - $0 }
        #expect(connects.count == 2, "connects at \(connects)")
        if let gap = gaps.first {
            #expect(gap >= 6_000 + HostileStreamPlay.openMs, "one connect in 6 s: gaps \(gaps)")
            #expect(gap >= 150_000 && gap <= 300_000 + HostileStreamPlay.openMs, "gaps \(gaps)")
        }
    }
}

/// One hostile server's connections played through the client's reconnect
/// decisions on a `SimulatedBoardClock`.
struct HostileStreamPlay {
    /// How long each connection stays open before the server hangs up.
    static let openMs: Int64 = 5
    let body: String
    let seed: UInt64

    /// When each connection opened (ms from the first), until `forMs` after the first ended.
    func connectTimesMs(forMs durationMs: Int64) -> [Int64] {
        let clock = SimulatedBoardClock()
        var settings = SSEClientSettings(url: "http://127.0.0.1:9/events")
        settings.jitterSeed = seed
        settings.clock = clock.clock
        var reconnects = SSEReconnectSchedule(settings: settings)
        let startMs = clock.monotonicMs
        let endMs = startMs + Self.openMs + durationMs
        var connects: [Int64] = []
        while clock.monotonicMs <= endMs, connects.count < 1_000 {
            connects.append(clock.monotonicMs - startMs)
            let connection = SSEConnection(parser: SSEParser(maxEventBytes: settings.maxEventBytes),
                                           deadConnectionTimeoutMs: settings.deadConnectionTimeoutMs, clock: settings.clock,
                                           recordLastEventId: { _ in }, handler: { _ in })
            for line in ["HTTP/1.1 200 OK\r\n", "Content-Type: text/event-stream\r\n", "\r\n"] {
                _ = Array(line.utf8).withUnsafeBytes { connection.header($0) }
            }
            Array(body.utf8).withUnsafeBytes { connection.body($0) }
            clock.advance(byMs: Self.openMs)
            let delayMs = Int64(reconnects.delayMs(after: SSEConnectionOutcome(ended: connection, code: CURLE_OK, nowMs: clock.monotonicMs)))
            guard delayMs <= endMs - clock.monotonicMs else { break }
            clock.advance(byMs: delayMs)
        }
        return connects
    }
}
