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

/// Issue 23: a quiet timer (the publish interval) does not shorten the loop's
/// wait until the core asks for it; due, it still fires, before the wake's inputs.
@Suite("The runtime's timer table: quiet timers")
struct QuietTimerTableTests {
    static let interval = BridgeTimer.publishInterval(slug: "w")

    @Test func aQuietTimerDoesNotWakeTheLoopUntilAskedAndStillFires() {
        var timers = TimerTable()
        timers.start(Self.interval, afterMs: 200, nowMs: 1_000)
        #expect(timers.msUntilNext(nowMs: 1_000) == nil, "nothing waits for it: the loop sleeps")
        timers.start(.silenceCheck, afterMs: 5_000, nowMs: 1_000)
        #expect(timers.msUntilNext(nowMs: 1_000) == 5_000)
        #expect(timers.takeDueQuiet(nowMs: 1_199).isEmpty)
        #expect(timers.takeDueQuiet(nowMs: 1_200) == [Self.interval], "due at the next wake, before its inputs")
        #expect(timers.deadlinesMs.keys.elementsEqual([.silenceCheck]))
    }

    @Test func askedForItWakesTheLoopAtItsDeadlineUntilItStartsAgain() {
        var timers = TimerTable()
        timers.start(Self.interval, afterMs: 200, nowMs: 1_000)
        timers.wake(Self.interval)
        #expect(timers.msUntilNext(nowMs: 1_050) == 150)
        #expect(timers.takeDueQuiet(nowMs: 1_300).isEmpty, "it woke the loop: it fires with the others")
        #expect(timers.takeDue(nowMs: 1_300) == [Self.interval])
        timers.start(Self.interval, afterMs: 200, nowMs: 1_300)
        #expect(timers.msUntilNext(nowMs: 1_300) == nil, "started again: quiet again")
        timers.wake(.settle)
        #expect(timers.deadlinesMs[.settle] == nil, "asking for a timer that does not run starts nothing")
    }

    @Test func theOtherTimersWakeTheLoopAndAreNeverTakenAsQuiet() {
        var timers = TimerTable()
        timers.start(.confirm(ActionKey(slug: "w", actionId: "a")), afterMs: 100, nowMs: 0)
        #expect(timers.msUntilNext(nowMs: 0) == 100)
        #expect(timers.takeDueQuiet(nowMs: 500).isEmpty)
        #expect(timers.takeDue(nowMs: 500).count == 1)
    }
}
