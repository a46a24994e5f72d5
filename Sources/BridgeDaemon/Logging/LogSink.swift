import ShellSupport

/// The daemon's logger: one line per event to stderr, journal priorities when under
/// systemd, identical errors and warnings limited (default 5 per minute, then one
/// "suppressed K similar messages" line). Safe to call from any thread.
public final class LogSink: @unchecked Sendable {
    /// Events less important than this are dropped.
    public let minimumLevel: LogLevel
    /// Journal or plain lines.
    public let formatter: LogLineFormatter

    private let clock: LogClock
    private let writeLine: @Sendable (String) -> Void
    private let lock = PosixMutex()
    private var rateLimiter: RepeatRateLimiter<LogEventKey>
    private var lastExpiryCheckMs: Int64?

    /// Creates a sink; `writeLine` receives each finished line (without newline).
    public init(
        minimumLevel: LogLevel = .info,
        format: LogLineFormat,
        rateLimiter: RepeatRateLimiter<LogEventKey> = RepeatRateLimiter(),
        clock: LogClock = .system,
        writeLine: @escaping @Sendable (String) -> Void = StandardErrorWriter.writeLine
    ) {
        self.minimumLevel = minimumLevel
        self.formatter = LogLineFormatter(format: format)
        self.rateLimiter = rateLimiter
        self.clock = clock
        self.writeLine = writeLine
    }

    /// A sink writing to this process's stderr, in journal format when stderr is the
    /// journal stream named by `$JOURNAL_STREAM`.
    public static func standardError(
        minimumLevel: LogLevel,
        environment: [String: String] = ProcessEnvironment.current
    ) -> LogSink {
        let format = LogLineFormat.detect(
            journalStream: environment["JOURNAL_STREAM"],
            standardErrorIdentity: StandardErrorWriter.identity()
        )
        return LogSink(minimumLevel: minimumLevel, format: format)
    }

    /// Logs `message` at `level`; the message is built only when the level is shown.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level.isShown(atMinimum: minimumLevel) else { return }
        let text = message()
        lock.withLock {
            let nowMs = clock.monotonicMs()
            var summaries = expireIfDue(nowMs: nowMs)
            var shouldEmit = true
            if level <= .warning {
                let verdict = rateLimiter.admit(LogEventKey(level: level, message: text), nowMs: nowMs)
                summaries += verdict.summaries
                shouldEmit = verdict.shouldEmit
            }
            summaries.forEach(writeSummary)
            if shouldEmit { write(level, text) }
        }
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

    /// Writes the summaries of rate-limit windows that have closed; call now and then
    /// (e.g. from the watchdog loop) so a burst is summed up even when all goes quiet.
    public func flushSuppressed() {
        lock.withLock {
            let nowMs = clock.monotonicMs()
            lastExpiryCheckMs = nowMs
            rateLimiter.expire(nowMs: nowMs).forEach(writeSummary)
        }
    }

    /// Expired windows, checked at most once a second to keep `log` cheap.
    private func expireIfDue(nowMs: Int64) -> [SuppressionSummary<LogEventKey>] {
        if let lastExpiryCheckMs, nowMs - lastExpiryCheckMs < 1_000 { return [] }
        lastExpiryCheckMs = nowMs
        return rateLimiter.expire(nowMs: nowMs)
    }

    private func writeSummary(_ summary: SuppressionSummary<LogEventKey>) {
        let noun = summary.suppressedCount == 1 ? "message" : "messages"
        write(summary.key.level, "suppressed \(summary.suppressedCount) similar \(noun): \(summary.key.message)")
    }

    private func write(_ level: LogLevel, _ text: String) {
        writeLine(formatter.line(level: level, message: text, epochMs: clock.wallClockEpochMs()))
    }
}
