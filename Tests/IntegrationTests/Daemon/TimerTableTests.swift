@testable import BridgeCore
@testable import BridgeDaemon
import Testing

/// The runtime's timers: asked after every batch which are due (issue 23: with
/// none due, the usual case, nothing is built); due ones come earliest first.
@Suite("The runtime's timer table")
struct TimerTableTests {
    @Test func dueTimersComeEarliestFirstAndTheOthersStay() {
        var timers = TimerTable()
        timers.start(.silenceCheck, afterMs: 300, nowMs: 1_000)
        timers.start(.settle, afterMs: 100, nowMs: 1_000)
        timers.start(.publishRetry(slug: "w"), afterMs: 5_000, nowMs: 1_000)
        #expect(timers.takeDue(nowMs: 1_099).isEmpty)
        #expect(timers.deadlinesMs.count == 3)
        #expect(timers.msUntilNext(nowMs: 1_099) == 1)
        #expect(timers.takeDue(nowMs: 1_300) == [.settle, .silenceCheck])
        #expect(timers.takeDue(nowMs: 1_300).isEmpty)
        #expect(timers.deadlinesMs.keys.elementsEqual([.publishRetry(slug: "w")]))
        timers.cancel(.publishRetry(slug: "w"))
        #expect(timers.takeDue(nowMs: Int64.max).isEmpty)
        #expect(timers.msUntilNext(nowMs: 0) == nil)
    }
}
