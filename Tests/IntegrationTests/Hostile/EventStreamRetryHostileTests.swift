import Foundation
import Testing
import TestSupport

/// Issue 12, item 4, against the real binary: a stream that sends a hostile
/// `retry:` and hangs up at once neither hot-loops (4,000 GETs in 10 s with
/// `retry: 0`) nor overflows (13,000 in 30 s with a huge one).
@Suite("Hostile event stream retry (real binary)", .serialized)
struct EventStreamRetryHostileTests {
    @Test(arguments: [("retry: 0\n\n", 8), ("retry: 9223372036854775807\n\n", 1), ("retry: 99999999999999999999999\n\n", 1),
                      ("retry: 1\n\n", 8),
                      // Session 3 review: one event before the hang-up made it "healthy": 19 GETs in 7 s.
                      ("retry: 1\nid: e1\ndata: x\n\n", 8)] as [(String, Int)])
    func aClosingStreamWithAHostileRetryBacksOff(body: String, maxConnects: Int) throws {
        let world = try HostileWorld(script: ["events_body": body, "events_hold_s": 0])
        try world.startBridge()
        #expect(world.waitForLog("event stream disconnected"), "\(world.log)")
        _ = waitUntil(timeoutSeconds: 6) { !world.isBridgeRunning }
        #expect(world.isBridgeRunning, "\(world.log)")
        let connects = world.server.times("GET")
        #expect(connects.count >= 1 && connects.count <= maxConnects, "\(connects.count) connects in 6 s")
        for (earlier, later) in zip(connects, connects.dropFirst()) { #expect(later - earlier >= 0.24) }
    }
}
