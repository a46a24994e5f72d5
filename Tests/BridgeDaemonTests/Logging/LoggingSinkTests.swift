import BridgeCore
import ShellSupport
import Testing

@testable import BridgeDaemon

/// Collects written lines and plays both clocks, for `LogSink` tests.
final class LoggingTestCapture: @unchecked Sendable {
    private let lock = ConditionLock(())
    private var collected: [String] = []
    private var nowMs: Int64 = 1_780_000_000_000

    var lines: [String] { lock.withLock { _ in collected } }

    func append(_ line: String) { lock.withLock { _ in collected.append(line) } }

    func advance(byMs milliseconds: Int64) { lock.withLock { _ in nowMs += milliseconds } }

    var nowMsForTests: Int64 { lock.withLock { _ in nowMs } }

    func makeSink(minimumLevel: LogLevel = .info, format: LogLineFormat, maxPerWindow: Int = 5, infoPerWindow: Int = 60) -> LogSink {
        LogSink(
            minimumLevel: minimumLevel,
            format: format,
            rateLimiter: RepeatRateLimiter(maxPerWindow: maxPerWindow, windowMs: 60_000, maxKeys: 64),
            infoRateLimiter: RepeatRateLimiter(maxPerWindow: infoPerWindow, windowMs: 60_000, maxKeys: 64),
            warningBudgetPerMinute: 100_000,
            infoBudgetPerMinute: 100_000,
            clock: BoardClock(
                wallClockEpochMs: { [self] in lock.withLock { _ in nowMs } },
                monotonicMs: { [self] in lock.withLock { _ in nowMs } }
            ),
            writeLine: { [self] line in lock.withLock { _ in collected.append(line) } }
        )
    }
}

@Suite struct LoggingSinkTests {
    @Test func writesJournalLinesAtOrAboveTheMinimumLevel() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(minimumLevel: .info, format: .journal)

        sink.error("cannot reach the broker")
        sink.warning("unknown device kitchen")
        sink.info("mqtt connected")
        sink.debug("not shown")

        #expect(capture.lines == ["<3>cannot reach the broker", "<4>unknown device kitchen", "<6>mqtt connected"])
    }

    @Test func writesPlainTimestampedLinesWithoutTheJournal() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(minimumLevel: .debug, format: .plain)

        sink.warning("unknown device kitchen")
        capture.advance(byMs: 1_500)
        sink.debug("tick")

        #expect(capture.lines == [
            "2026-05-28T20:26:40.000Z warning unknown device kitchen",
            "2026-05-28T20:26:41.500Z debug tick",
        ])
    }

    @Test func doesNotBuildMessagesThatAreFilteredOut() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(minimumLevel: .warning, format: .journal)
        var built = false

        sink.debug({ built = true; return "expensive" }())

        #expect(!built)
        #expect(capture.lines.isEmpty)
    }

    @Test func limitsAFlappingWarningAndSumsUpTheRest() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal, maxPerWindow: 2)

        for _ in 0..<10 { sink.warning("shelly-1 went offline") }
        sink.info("mqtt connected")
        capture.advance(byMs: 60_000)
        sink.warning("shelly-1 went offline")

        #expect(capture.lines == [
            "<4>shelly-1 went offline",
            "<4>shelly-1 went offline",
            "<6>mqtt connected",
            "<4>suppressed 8 similar messages: shelly-1 went offline",
            "<4>shelly-1 went offline",
        ])
    }

    @Test func flushWritesTheSummaryWhenAllGoesQuiet() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal, maxPerWindow: 1)

        for _ in 0..<2 { sink.error("PATCH failed: 503") }
        sink.flush()
        capture.advance(byMs: 60_000)
        sink.flush()

        #expect(capture.lines == ["<3>PATCH failed: 503", "<3>suppressed 1 similar message: PATCH failed: 503"])
    }

    /// A burst just before a stop was never summed up: nothing came after it to close its
    /// window (found in review, issue 42). At exit the open windows are closed and said.
    @Test func theSummariesOfOpenWindowsAreWrittenAtExit() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal, maxPerWindow: 1)

        for _ in 0..<3 { sink.error("PATCH failed: 503") }
        sink.flush()
        sink.flushAtExit()
        sink.flushAtExit()

        #expect(capture.lines == ["<3>PATCH failed: 503", "<3>suppressed 2 similar messages: PATCH failed: 503"])
    }

    @Test func infoIsLimitedAtItsOwnRateAndDebugIsNot() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(minimumLevel: .debug, format: .journal, maxPerWindow: 1, infoPerWindow: 3)

        for index in 0..<5 { sink.info("press \(index) received") }
        for index in 0..<5 { sink.debug("tick \(index)") }
        capture.advance(byMs: 60_000)
        sink.flush()

        #expect(capture.lines == [
            "<6>press 0 received", "<6>press 1 received", "<6>press 2 received",
            "<7>tick 0", "<7>tick 1", "<7>tick 2", "<7>tick 3", "<7>tick 4",
            "<6>suppressed 2 similar messages: press 4 received",
        ])
    }

    @Test func theDaemonsDefaultsAreFiveWarningsAndSixtyInfoLinesAMinutePerKind() {
        let capture = LoggingTestCapture()
        let sink = LogSink(format: .journal, clock: BoardClock(wallClockEpochMs: { 0 }, monotonicMs: { 0 }),
                           writeLine: { line in capture.append(line) })

        for index in 0..<100 { sink.log(.warning, message: "press \(index) \("lights/ghost"): unknown action") }
        for index in 0..<100 { sink.log(.info, message: "press \(index) \("lights/porch"): command \("on") sent") }

        #expect(capture.lines.filter { $0.hasPrefix("<4>") }.count == 5)
        #expect(capture.lines.filter { $0.hasPrefix("<6>") }.count == LogSink.defaultInfoLinesPerMinute)
    }

    /// Issue 12, item 7: a unique id per message used to make every line a key of its own.
    @Test func messagesOfOneKindAreLimitedTogetherHoweverUniqueTheirText() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal, maxPerWindow: 2)

        for index in 0..<1_000 {
            sink.log(.warning, message: "skipping malformed event \("evt_\(index)"): \("not JSON \(index)")")
        }
        sink.log(.warning, message: "press \("evt_x") \("lights/ghost"): unknown action")
        capture.advance(byMs: 60_000)
        sink.flush()

        #expect(capture.lines == [
            "<4>skipping malformed event evt_0: not JSON 0",
            "<4>skipping malformed event evt_1: not JSON 1",
            "<4>press evt_x lights/ghost: unknown action",
            "<4>suppressed 998 similar messages: skipping malformed event evt_999: not JSON 999",
        ])
    }

    @Test func shellMessagesAreLimitedByCallSite() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal, maxPerWindow: 2)

        for index in 0..<10 { sink.warning("event stream: bad frame \(index)") }
        sink.warning("event stream: bad frame 10")   // another call site: another kind

        #expect(capture.lines == [
            "<4>event stream: bad frame 0", "<4>event stream: bad frame 1", "<4>event stream: bad frame 10",
        ])
    }

    @Test func anExemptMessageIsNeverHeldBack() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal, maxPerWindow: 1)

        for index in 0..<10 { sink.log(.warning, message: LogMessage("inbox full: \(index)", kind: "inbox").exemptFromRateLimit) }

        #expect(capture.lines.count == 10)
    }

    /// Issue 13's refused-reload report: one line per report line (the caret under its
    /// column), limited as one event, never cut in the middle by the limit.
    @Test func aReportIsLimitedAsOneEvent() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal, maxPerWindow: 2)
        let report = ["reload refused, keeping the running config:", "reload refused: bridge.yaml:3:9: unknown key",
                      "reload refused:         labl: Movie", "reload refused:         ^"]

        for _ in 0..<3 { sink.log(.error, lines: report) }

        #expect(capture.lines == (report + report).map { "<3>" + $0 })
    }

    @Test func everyLineIsBoundedWithAMarker() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .plain)

        sink.log(.warning, message: "press \("evt_1") \(String(repeating: "g", count: 60_000)): unknown action")

        let line = capture.lines.first ?? ""
        let message = line.split(separator: " ", maxSplits: 2).last.map(String.init) ?? ""
        #expect(message.unicodeScalars.count <= LogLineFormatter.maxMessageScalars)
        #expect(message.hasPrefix("press evt_1 ggg"))
        let total = "press evt_1 ".count + 60_000 + ": unknown action".count
        let shown = LogLineFormatter.maxMessageScalars - LogLineFormatter.markerReserveScalars
        #expect(message.hasSuffix("ggg…[+\(total - shown)]"), "\(message.suffix(40))")
    }

    @Test func keepsEveryLineWholeUnderConcurrentUse() async {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal, infoPerWindow: 10_000)
        let taskCount = 8
        let linesPerTask = 200

        await withTaskGroup(of: Void.self) { group in
            for task in 0..<taskCount {
                group.addTask {
                    for line in 0..<linesPerTask { sink.info("task \(task) line \(line)") }
                }
            }
        }

        let lines = capture.lines
        #expect(lines.count == taskCount * linesPerTask)
        #expect(Set(lines).count == taskCount * linesPerTask)
        #expect(lines.allSatisfy { $0.hasPrefix("<6>task ") })
    }

    @Test func usesTheJournalFormatWhenJournalStreamNamesStandardError() {
        let identity = StandardErrorWriter.identity()
        let journalStream = identity.map { "\($0.device):\($0.inode)" } ?? "1:1"

        let underJournal = LogSink.standardError(minimumLevel: .info, environment: ["JOURNAL_STREAM": journalStream])
        let plain = LogSink.standardError(minimumLevel: .info, environment: [:])

        #expect(underJournal.formatter.format == .journal)
        #expect(plain.formatter.format == .plain)
    }

    /// Session 3 review (F-logkinds): however many kinds, the total of a level is bounded
    /// per minute, then summed up in one line.
    @Test func theBudgetOfALevelBoundsTheTotalWhateverTheNumberOfKinds() {
        let capture = LoggingTestCapture()
        let sink = LogSink(
            format: .journal,
            rateLimiter: RepeatRateLimiter(maxPerWindow: 5, windowMs: 60_000, maxKeys: 64),
            warningBudgetPerMinute: 20,
            infoBudgetPerMinute: 10,
            clock: BoardClock(wallClockEpochMs: { 0 }, monotonicMs: { [capture] in capture.nowMsForTests }),
            writeLine: { [capture] line in capture.append(line) }
        )
        for round in 0..<10 {
            for action in 0..<300 {
                sink.log(.warning, message: "action \(configured: "a\(action)") payload \(round)")
            }
        }
        for index in 0..<50 { sink.log(.info, message: "press \(index) done") }
        #expect(capture.lines.count == 20 + 10, "\(capture.lines.count) lines")
        capture.advance(byMs: 61_000)
        sink.flush()
        let summaries = capture.lines.dropFirst(30)
        #expect(summaries.contains { $0.hasPrefix("<4>suppressed 305 more messages (log budget: 20 errors and warnings a minute)") },
                "\(Array(summaries))")
        #expect(summaries.contains { $0.hasPrefix("<6>suppressed 40 more messages (log budget: 10 info lines a minute)") },
                "\(Array(summaries))")
        // 64 kinds of their own and the shared window pass 325; 20 of them are written. Of the
        // 65 kinds' summaries only 20 fit the next minute's budget.
        #expect(capture.lines.count == 30 + 2 + 20, "kinds' summaries count against the budget too")
    }
}
