import Foundation
import Testing
import TestSupport

/// Issue 12, item 4, against the real binary: a stream that sends a hostile
/// `retry:` and hangs up at once neither hot-loops (4,000 GETs in 10 s with
/// `retry: 0`) nor overflows (13,000 in 30 s with a huge one).
@Suite("Hostile event stream retry (real binary)", .serialized)
struct EventStreamRetryHostileTests {
    /// `retry: 0` and `retry: 1` are clamped to 500 ms, doubled per failed connection, the
    /// upper half jittered: the n-th gap between connects lasts 0.5 × 2ⁿ⁻¹ to 2ⁿ⁻¹ s (0.5-1,
    /// 1-2, 2-4 s): at least 3 connects in the 6 s after the first ends, each gap at least
    /// its floor and at least the gap before (a single connect, or reconnects at a steady
    /// pace, fail). A huge `retry:` is clamped to 300 s: that one connect alone.
    @Test(arguments: [("retry: 0\n\n", 3...8), ("retry: 9223372036854775807\n\n", 1...1),
                      ("retry: 99999999999999999999999\n\n", 1...1), ("retry: 1\n\n", 3...8),
                      // Session 3 review: one event before the hang-up made it "healthy": 19 GETs in 7 s.
                      ("retry: 1\nid: e1\ndata: x\n\n", 3...8)] as [(String, ClosedRange<Int>)])
    func aClosingStreamWithAHostileRetryBacksOff(body: String, expectedConnects: ClosedRange<Int>) throws {
        let world = try HostileWorld(script: ["events_body": body, "events_hold_s": 0])
        try world.startBridge()
        #expect(world.waitForLog("event stream disconnected"), "\(world.log)")
        _ = waitUntil(timeoutSeconds: 6) { !world.isBridgeRunning }
        #expect(world.isBridgeRunning, "\(world.log)")
        let connects = world.server.times("GET")
        let gaps = zip(connects, connects.dropFirst()).map { $1 - $0 }
        #expect(expectedConnects.contains(connects.count), "\(connects.count) connects in 6 s, gaps \(gaps)")
        for (index, gap) in gaps.enumerated() {
            let floorSeconds = 0.5 * Double(1 << min(index, 20))
            #expect(gap >= floorSeconds - 0.05, "gap \(index + 1) below its floor of \(floorSeconds) s: gaps \(gaps)")
        }
        for (earlier, later) in zip(gaps, gaps.dropFirst()) { #expect(later >= earlier - 0.05, "delays grow: gaps \(gaps)") }
    }
}
