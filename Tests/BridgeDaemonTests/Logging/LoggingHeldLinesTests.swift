import ShellSupport
import Testing

@testable import BridgeDaemon

/// Issue 23: while the loop works through a batch, info and debug lines are held
/// and written with one `write(2)` when it is done (a press's three info lines
/// cost one system call); nothing is lost or reordered, errors and warnings go at
/// once (with what was held before them), the held text is bounded, and the rate
/// limits hold as before.
@Suite("Log: lines held through a batch, one write")
struct LoggingHeldLinesTests {
    @Test func heldInfoLinesAreWrittenTogetherInOrderWhenTheBatchEnds() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(minimumLevel: .debug, format: .journal)
        sink.info("before")
        sink.holdLines()
        sink.info("press evt_1 living-room/fan: command ON sent")
        sink.debug("heard home/fan/state")
        sink.info("press evt_1 living-room/fan: confirmed by the device after 12 ms")
        #expect(capture.lines == ["<6>before"], "held until the batch ends")
        sink.flush()
        #expect(capture.lines == ["<6>before", "<6>press evt_1 living-room/fan: command ON sent\n<7>heard home/fan/state\n"
            + "<6>press evt_1 living-room/fan: confirmed by the device after 12 ms"])
        sink.info("after")
        #expect(capture.lines.last == "<6>after", "not held once flushed")
        sink.flush()
        #expect(capture.lines.count == 3, "nothing held: nothing written")
    }

    @Test func aWarningWritesWhatIsHeldFirstThenItself() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal)
        sink.holdLines()
        sink.info("one")
        sink.info("two")
        sink.warning("broker gone")
        #expect(capture.lines == ["<6>one\n<6>two", "<4>broker gone"])
        sink.info("three")
        sink.error("cannot record")
        sink.flush()
        #expect(capture.lines == ["<6>one\n<6>two", "<4>broker gone", "<6>three", "<3>cannot record"])
    }

    @Test func theHeldTextIsBounded() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal, infoPerWindow: 100_000)
        sink.holdLines()
        let line = String(repeating: "x", count: 1_000)
        for index in 0..<40 { sink.info("\(index) \(line)") }
        #expect(!capture.lines.isEmpty, "written before the batch ended")
        #expect(capture.lines.allSatisfy { $0.utf8.count <= LogSink.maxHeldBytes + 1_100 })
        sink.flush()
        let written = capture.lines.joined(separator: "\n").split(separator: "\n")
        #expect(written.count == 40)
        #expect(written.enumerated().allSatisfy { $0.element.hasPrefix("<6>\($0.offset) ") }, "in order, none lost")
    }

    /// Issue 42 §2: the holding thread keeps its lines without the lock; another
    /// thread's lines are never held (they went into the loop's batch before).
    @Test func anotherThreadsLinesAreWrittenAtOnceWhileOneHolds() throws {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal)
        sink.holdLines()
        sink.info("held by the loop")
        let other = try ShellThread {
            sink.holdLines()   // one thread holds at a time: changes nothing
            sink.info("from the syncing thread")
            sink.flush()       // not the holding thread's: writes nothing of the loop's
        }
        other.join()
        #expect(capture.lines == ["<6>from the syncing thread"])
        sink.flush()
        #expect(capture.lines == ["<6>from the syncing thread", "<6>held by the loop"])
    }

    /// A held line is judged and stamped with the clocks read when it was logged,
    /// not when the batch ends.
    @Test func aHeldLineKeepsTheTimeItWasLoggedAt() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .plain)
        sink.holdLines()
        sink.info("pressed")
        let loggedAt = capture.lines
        capture.advance(byMs: 61_000)
        sink.flush()
        #expect(loggedAt.isEmpty)
        let stamped = LoggingTestCapture()
        stamped.makeSink(format: .plain).info("pressed")
        #expect(capture.lines == stamped.lines, "stamped when logged, 61 s before the flush")
    }

    @Test func theRateLimitHoldsWhileLinesAreHeld() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal, infoPerWindow: 2)
        sink.holdLines()
        for index in 0..<5 { sink.info("same call site \(index)") }
        sink.flush()
        #expect(capture.lines == ["<6>same call site 0\n<6>same call site 1"])
    }
}
