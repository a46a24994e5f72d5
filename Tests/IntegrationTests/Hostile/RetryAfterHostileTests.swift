import Foundation
import Testing
import TestSupport

/// Issue 12, item 2, against the real binary: hostile `Retry-After` and `Date`
/// headers neither crash the daemon nor make it hot-loop or stop for ever.
@Suite("Hostile headers (real binary)", .serialized)
struct RetryAfterHostileTests {
    /// `Int64.max` seconds used to trap on `* 1000` on any status: a crash loop.
    @Test func aHugeRetryAfterOnASuccessDoesNotCrash() throws {
        let world = try HostileWorld(script: ["patch_status": 200, "patch_headers": [["Retry-After", "9223372036854775807"]]])
        try world.startBridge()
        #expect(world.waitForLog("published lights"), "\(world.log)")
        #expect(world.isBridgeRunning, "\(world.log)")
    }

    /// On a 429, a huge value is clamped to one hour (and the timer table takes it: the
    /// loop goes on, a reload is done). The wait itself is asserted on the simulated
    /// clock (`PublishRetryUnderSimulationTests`, issue 42 §4).
    @Test func aHugeRetryAfterOnA429IsClampedToAnHour() throws {
        let world = try HostileWorld(script: ["patch_status": 429, "patch_headers": [["Retry-After", "9223372036854775807"]]])
        try world.startBridge()
        #expect(world.waitForLog("rate limited; retrying in 3600000 ms"), "\(world.log)")
        world.bridge?.send(SIGHUP)
        #expect(world.waitForLog("config reloaded"), "\(world.log)")
        #expect(world.isBridgeRunning, "\(world.log)")
        #expect(world.server.patchCount == 1, "the hour's wait holds, also across the reload: \(world.server.patchCount) PATCHes")
    }

    /// A zero or past `Retry-After` used to hot-loop PATCHes (14,000 in 6 s): read off the
    /// wire it is clamped to a second, and the retry comes. The rate (at least a second
    /// between PATCHes, also for the values the core ignores) is asserted on the simulated clock.
    @Test(arguments: ["0", "Sun, 29 Nov 1970 00:00:00 GMT"])
    func aZeroOrPastRetryAfterWaitsASecond(_ value: String) throws {
        let world = try HostileWorld(script: ["patch_status": 429, "patch_headers": [["Retry-After", value]]])
        try world.startBridge()
        #expect(world.waitForLog("rate limited; retrying in 1000 ms"), "\(world.log)")
        #expect(waitUntil(timeoutSeconds: 5) { world.server.patchCount >= 2 || !world.isBridgeRunning }, "\(world.log)")
        #expect(world.isBridgeRunning, "\(world.log)")
        let times = world.server.times("PATCH")
        if times.count >= 2 { #expect(times[1] - times[0] >= 0.95, "PATCHes at \(times)") }
    }

    /// An HTTP date one minute after the response's `Date` is a one-minute wait.
    @Test func anHTTPDateIsMeasuredFromTheResponsesDate() throws {
        let world = try HostileWorld(script: ["patch_status": 503, "patch_headers": [
            ["Date", "Sun, 29 Nov 2026 21:00:00 GMT"], ["Retry-After", "Sun, 29 Nov 2026 21:01:00 GMT"]]])
        try world.startBridge()
        #expect(world.waitForLog("failed (HTTP 503); retrying in 60000 ms"), "\(world.log)")
    }

    /// The stream's `Date` with a huge year or a negative hour used to trap in
    /// `HTTPDate` on every reconnect.
    @Test(arguments: ["Sun, 29 Nov 1000000000000 21:00:00 GMT", "Sun, 29 Nov 2026 -99999999999999999:00:00 GMT",
                      "Sun, 29 Nov 9223372036854775807 21:00:00 GMT"])
    func aHostileStreamDateDoesNotCrash(_ date: String) throws {
        let world = try HostileWorld(script: ["events_headers": [["Date", date]], "events_hold_s": 0.5])
        try world.startBridge()
        #expect(world.waitForLog("event stream connected"), "\(world.log)")
        #expect(world.waitForLog("event stream disconnected"), "\(world.log)")
        #expect(world.waitForLog("published lights"), "\(world.log)")
        #expect(world.isBridgeRunning, "\(world.log)")
    }
}
