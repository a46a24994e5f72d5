@testable import BridgeDaemon
import ShellSupport
import Testing

/// Issue 38 item 7: the page is rendered off the loop, at most once per change
/// of what it shows, and a flood of requests is answered from the kept bytes.
@Suite("Status render cache (issue 38 item 7)")
struct StatusRenderCacheTests {
    final class Renders: Sendable {
        let count = ConditionLock(0)
        /// While false, a render waits (a slow render: 600 actions on a slow board).
        let isReleased = ConditionLock(true)

        func make(_ body: String) -> StatusRenderCache.Render {
            { [count, isReleased] in
                isReleased.wait(timeoutMs: 10_000, until: { $0 })
                count.withLock { $0 += 1 }
                return (200, "text/html", body)
            }
        }
    }

    @Test func aThousandRequestsOfOneGenerationRenderOnce() throws {
        let cache = StatusRenderCache()
        defer { cache.stop() }
        let renders = Renders()
        #expect(cache.answer(route: "/", generation: 1, nowMs: 10_000, makeRender: { renders.make("a") }) == nil, "never rendered yet")
        let first = try #require(cache.waitForFirst(route: "/", timeoutMs: 5_000))
        #expect(first.body == Array("a".utf8))
        for offsetMs in 0..<1_000 {
            let answer = cache.answer(route: "/", generation: 1, nowMs: 10_000 + Int64(offsetMs % 900), makeRender: {
                Issue.record("rendered again for the same generation and second")
                return renders.make("b")
            })
            #expect(answer?.body == Array("a".utf8))
        }
        #expect(renders.count.withLock { $0 } == 1)
    }

    @Test func aChangeRendersAgainAtMostEveryInterval() throws {
        let cache = StatusRenderCache()
        defer { cache.stop() }
        let renders = Renders()
        _ = cache.answer(route: "/live", generation: 1, nowMs: 0, makeRender: { renders.make("g1") })
        _ = try #require(cache.waitForFirst(route: "/live", timeoutMs: 5_000))
        var made = 0
        // A change every 10 ms for 400 ms: inside the interval, no render; the kept bytes answer.
        for step in 1...40 {
            let answer = cache.answer(route: "/live", generation: UInt64(1 + step), nowMs: Int64(step * 10), makeRender: {
                made += 1
                return renders.make("g\(1 + step)")
            })
            #expect(answer?.body == Array("g1".utf8))
        }
        #expect(made == 0)
        // Past the interval: one render is queued; the stale bytes still answer at once.
        let stale = cache.answer(route: "/live", generation: 42, nowMs: StatusRenderCache.minRenderIntervalMs, makeRender: {
            made += 1
            return renders.make("g42")
        })
        #expect(stale?.body == Array("g1".utf8))
        #expect(made == 1)
        #expect(renders.count.wait(timeoutMs: 5_000, until: { $0 == 2 }))
    }

    /// A render that takes long (stuck here) never holds up an answer: the loop
    /// answers from the kept bytes, and queues no second render meanwhile.
    @Test func aSlowRenderDoesNotHoldTheLoop() throws {
        let cache = StatusRenderCache()
        defer {
            cache.stop()
        }
        let renders = Renders()
        _ = cache.answer(route: "/", generation: 1, nowMs: 0, makeRender: { renders.make("old") })
        _ = try #require(cache.waitForFirst(route: "/", timeoutMs: 5_000))
        renders.isReleased.withLock { $0 = false }
        defer { renders.isReleased.withLock { $0 = true } }
        var made = 0
        let startUs = MonotonicClock.nowUs()
        for step in 1...200 {
            let answer = cache.answer(route: "/", generation: UInt64(1 + step), nowMs: 1_000 + Int64(step) * 600, makeRender: {
                made += 1
                return renders.make("new")
            })
            #expect(answer?.body == Array("old".utf8))
        }
        let elapsedUs = MonotonicClock.nowUs() - startUs
        #expect(made == 1, "one render under way at a time")
        #expect(elapsedUs < 200_000, "200 answers took \(elapsedUs) µs while a render was stuck")
    }
}
