import Testing

@testable import BridgeDaemon

/// Collects written lines and plays both clocks, for `LogSink` tests.
final class LoggingTestCapture: @unchecked Sendable {
    private let lock = PosixMutex()
    private var collected: [String] = []
    private var nowMs: Int64 = 1_780_000_000_000

    var lines: [String] { lock.withLock { collected } }

    func advance(byMs milliseconds: Int64) { lock.withLock { nowMs += milliseconds } }

    func makeSink(minimumLevel: LogLevel = .info, format: LogLineFormat, maxPerWindow: Int = 5) -> LogSink {
        LogSink(
            minimumLevel: minimumLevel,
            format: format,
            rateLimiter: RepeatRateLimiter(maxPerWindow: maxPerWindow, windowMs: 60_000, maxKeys: 64),
            clock: LogClock(
                wallClockEpochMs: { [self] in lock.withLock { nowMs } },
                monotonicMs: { [self] in lock.withLock { nowMs } }
            ),
            writeLine: { [self] line in lock.withLock { collected.append(line) } }
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

        sink.error("PATCH failed: 503")
        sink.error("PATCH failed: 503")
        sink.flushSuppressed()
        capture.advance(byMs: 60_000)
        sink.flushSuppressed()

        #expect(capture.lines == ["<3>PATCH failed: 503", "<3>suppressed 1 similar message: PATCH failed: 503"])
    }

    @Test func infoAndDebugAreNotRateLimited() {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(minimumLevel: .debug, format: .journal, maxPerWindow: 1)

        for _ in 0..<5 { sink.info("press received") }

        #expect(capture.lines.count == 5)
    }

    @Test func keepsEveryLineWholeUnderConcurrentUse() async {
        let capture = LoggingTestCapture()
        let sink = capture.makeSink(format: .journal)
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
}
