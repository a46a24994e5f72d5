import Testing

@testable import BridgeDaemon

@Suite struct LoggingRateLimiterTests {
    /// One event and what the limiter must answer.
    struct Step: Sendable {
        let key: String
        let atMs: Int64
        let emits: Bool
        let summaries: [SuppressionSummary<String>]

        static func emit(_ key: String, at atMs: Int64, summaries: [(String, Int)] = []) -> Step {
            Step(key: key, atMs: atMs, emits: true, summaries: summaries.map { SuppressionSummary(key: $0.0, suppressedCount: $0.1) })
        }

        static func suppress(_ key: String, at atMs: Int64) -> Step {
            Step(key: key, atMs: atMs, emits: false, summaries: [])
        }
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        let maxPerWindow: Int
        let windowMs: Int64
        let maxKeys: Int
        let steps: [Step]
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "under the limit everything is written", maxPerWindow: 3, windowMs: 1_000, maxKeys: 8, steps: [
            .emit("a", at: 0), .emit("a", at: 1), .emit("a", at: 2),
        ]),
        Scenario(name: "over the limit the rest is held back", maxPerWindow: 2, windowMs: 1_000, maxKeys: 8, steps: [
            .emit("a", at: 0), .emit("a", at: 10), .suppress("a", at: 20), .suppress("a", at: 999),
        ]),
        Scenario(name: "the next window starts with a summary", maxPerWindow: 1, windowMs: 1_000, maxKeys: 8, steps: [
            .emit("a", at: 0), .suppress("a", at: 5), .suppress("a", at: 6), .emit("a", at: 1_000, summaries: [("a", 2)]),
            .suppress("a", at: 1_001), .emit("a", at: 2_500, summaries: [("a", 1)]),
        ]),
        Scenario(name: "no summary when nothing was held back", maxPerWindow: 2, windowMs: 1_000, maxKeys: 8, steps: [
            .emit("a", at: 0), .emit("a", at: 1), .emit("a", at: 1_000),
        ]),
        Scenario(name: "keys are limited independently", maxPerWindow: 1, windowMs: 1_000, maxKeys: 8, steps: [
            .emit("a", at: 0), .emit("b", at: 0), .suppress("a", at: 1), .suppress("b", at: 1),
        ]),
        Scenario(name: "a full memory never hands a fresh window to a kind: new kinds share one limited window",
                 maxPerWindow: 1, windowMs: 1_000, maxKeys: 2, steps: [
            .emit("a", at: 0), .suppress("a", at: 1), .emit("b", at: 2), .emit("c", at: 3),
            .suppress("a", at: 4), .suppress("c", at: 5), .suppress("d", at: 6), .suppress("e", at: 7),
            // The minute is over: the kinds' windows and the shared one are summed up, and a kind gets its own window again.
            .emit("f", at: 1_003, summaries: [("a", 2), ("c", 3)]),
        ]),
        Scenario(name: "a full memory drops closed windows first", maxPerWindow: 1, windowMs: 100, maxKeys: 2, steps: [
            .emit("a", at: 0), .emit("b", at: 50), .suppress("b", at: 51), .emit("c", at: 120), .suppress("b", at: 121),
        ]),
    ]

    @Test(arguments: scenarios)
    func limitsRepeatedEvents(scenario: Scenario) {
        var limiter = RepeatRateLimiter<String>(
            maxPerWindow: scenario.maxPerWindow, windowMs: scenario.windowMs, maxKeys: scenario.maxKeys
        )
        for (index, step) in scenario.steps.enumerated() {
            let verdict = limiter.admit(step.key, nowMs: step.atMs)
            #expect(verdict == RateLimitVerdict(shouldEmit: step.emits, summaries: step.summaries), "step \(index)")
            #expect(limiter.trackedKeyCount <= scenario.maxKeys)
        }
    }

    /// Issue 42 §2: the log sink's flush takes its lock only once a window may close.
    @Test func nextClosingIsTheFirstOpenWindowsEnd() {
        var limiter = RepeatRateLimiter<String>(maxPerWindow: 1, windowMs: 1_000, maxKeys: 1)
        #expect(limiter.nextClosingMs == Int64.max, "no window open")
        _ = limiter.admit("a", nowMs: 100)
        _ = limiter.admit("b", nowMs: 300)   // the table is full: the shared window
        _ = limiter.admit("a", nowMs: 400)
        #expect(limiter.nextClosingMs == 1_100)
        #expect(limiter.expire(nowMs: 1_100).map(\.key) == ["a"])
        #expect(limiter.nextClosingMs == 1_300, "the shared window's")
        _ = limiter.expire(nowMs: 1_300)
        #expect(limiter.nextClosingMs == Int64.max, "every window closed")
    }

    @Test func expireReportsClosedWindowsWithSuppressedEvents() {
        var limiter = RepeatRateLimiter<String>(maxPerWindow: 1, windowMs: 1_000, maxKeys: 8)
        _ = limiter.admit("flapping", nowMs: 0)
        _ = limiter.admit("flapping", nowMs: 1)
        _ = limiter.admit("flapping", nowMs: 2)
        _ = limiter.admit("quiet", nowMs: 3)

        #expect(limiter.expire(nowMs: 999).isEmpty)
        #expect(limiter.expire(nowMs: 1_003) == [SuppressionSummary(key: "flapping", suppressedCount: 2)])
        #expect(limiter.trackedKeyCount == 0)
    }

    /// Issue 23: `expire` looks at the windows only once the earliest may have
    /// closed; each closes on time whatever the order the windows opened in.
    @Test func windowsOpenedAtDifferentTimesEachExpireOnTime() {
        var limiter = RepeatRateLimiter<String>(maxPerWindow: 1, windowMs: 1_000, maxKeys: 8)
        for (key, atMs) in [("b", Int64(500)), ("a", 100), ("c", 900)] {
            _ = limiter.admit(key, nowMs: atMs)
            _ = limiter.admit(key, nowMs: atMs + 1)
        }
        #expect(limiter.expire(nowMs: 1_099).isEmpty)
        #expect(limiter.expire(nowMs: 1_100) == [SuppressionSummary(key: "a", suppressedCount: 1)])
        #expect(limiter.expire(nowMs: 1_499).isEmpty)
        _ = limiter.admit("a", nowMs: 1_450)
        #expect(limiter.expire(nowMs: 1_500) == [SuppressionSummary(key: "b", suppressedCount: 1)])
        #expect(limiter.expire(nowMs: 1_900) == [SuppressionSummary(key: "c", suppressedCount: 1)])
        #expect(limiter.trackedKeyCount == 1)
        #expect(limiter.expire(nowMs: 2_450).isEmpty && limiter.trackedKeyCount == 0)
    }

    @Test func memoryStaysBoundedUnderManyDistinctKeys() {
        var limiter = RepeatRateLimiter<String>(maxPerWindow: 1, windowMs: 60_000, maxKeys: 16)
        var emitted = 0
        for index in 0..<1_000 where limiter.admit("device \(index) offline", nowMs: Int64(index)).shouldEmit {
            emitted += 1
        }
        #expect(limiter.trackedKeyCount == 16)
        #expect(emitted == 17, "16 kinds of their own and one for the others")
    }

    /// Session 3 review (F-logkinds): 300 kinds (one per action) round-robin used to
    /// evict each other's windows, each coming back fresh: every event was written.
    @Test func moreKindsThanKeysCannotDefeatTheLimit() {
        var limiter = RepeatRateLimiter<String>(maxPerWindow: 5, windowMs: 60_000, maxKeys: 256)
        var emitted = 0
        for round in 0..<10 {
            for action in 0..<300 where limiter.admit("action \(action)", nowMs: Int64(round * 300 + action)).shouldEmit {
                emitted += 1
            }
        }
        #expect(emitted <= (256 + 1) * 5, "\(emitted) of 3,000 events written")
        let summaries = limiter.expire(nowMs: 60_000 + 3_000)
        #expect(summaries.reduce(0) { $0 + $1.suppressedCount } == 3_000 - emitted, "every event held back is counted")
    }

    @Test func defaultsAllowFivePerMinute() {
        let limiter = RepeatRateLimiter<String>()
        #expect(limiter.maxPerWindow == 5)
        #expect(limiter.windowMs == 60_000)
        #expect(limiter.maxKeys == 256)
    }
}
