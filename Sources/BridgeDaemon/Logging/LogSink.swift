import BridgeCore
import ShellSupport

/// The daemon's logger: one bounded line per event to stderr, journal priorities
/// when under systemd. Rate-limited by kind of message, never by its text (a
/// unique id or payload per line must not defeat the limit): a core message's
/// kind is its template, a shell message's kind is its call site. Per kind, errors
/// and warnings pass 5 a minute, info lines 60 a minute (by default), then one
/// "suppressed K similar messages" line when the minute is over; debug lines are
/// not limited (the level is asked for while diagnosing). On top of that, a budget
/// per level bounds the total whatever the number of kinds: by default 100 errors and
/// warnings and 300 info lines a minute (summaries included), then one
/// "suppressed K more …" line when the minute is over. Safe to call from any thread.
///
/// While the daemon's loop works through a batch it holds info and debug lines
/// (`holdLines`) and writes them in one `write(2)` when the batch is done
/// (`flushHeldLines`, before the loop sleeps): a press's three info lines cost one
/// system call, not three. Held lines keep their order with every other line; an
/// error or a warning, or more than `maxHeldBytes`, writes what is held at once.
public final class LogSink: @unchecked Sendable {
    /// Events less important than this are dropped.
    public let minimumLevel: LogLevel
    /// Journal or plain lines.
    public let formatter: LogLineFormatter

    private let clock: BoardClock
    private let writeLine: @Sendable (String) -> Void
    /// Guards the limiters (the one lock, `ConditionLock`, with nothing to wait for).
    private let lock = ConditionLock(())
    private var rateLimiter: RepeatRateLimiter<LogEventKey>
    private var infoRateLimiter: RepeatRateLimiter<LogEventKey>
    /// The budget of all kinds together, keyed by level (errors count as warnings).
    private var warningBudget: RepeatRateLimiter<LogLevel>
    private var infoBudget: RepeatRateLimiter<LogLevel>
    private var lastExpiryCheckMs: Int64?
    /// Lines held while a batch runs, joined by newlines, as bytes (at most
    /// `maxHeldBytes` and a line; the storage is kept for the next batch).
    private var heldBytes: [UInt8] = []
    private var isHolding = false
    /// The timestamps' date and time up to the second, between lines.
    private var stampClock = LogTimestamp.SecondCache()

    /// What a batch may hold before it is written anyway.
    public static let maxHeldBytes = 16 * 1024

    /// Errors and warnings of all kinds together let through per minute by default.
    public static let defaultWarningBudgetPerMinute = 100
    /// Info lines of all kinds together let through per minute by default.
    public static let defaultInfoBudgetPerMinute = 300

    /// Info lines of one kind let through per minute by default.
    public static let defaultInfoLinesPerMinute = 60

    /// Creates a sink; `rateLimiter` limits errors and warnings, `infoRateLimiter`
    /// info lines, per kind; the budgets limit each level's total per minute;
    /// `writeLine` receives each finished line (without newline), or lines held
    /// through a batch, joined by newlines, at once.
    public init(
        minimumLevel: LogLevel = .info,
        format: LogLineFormat,
        rateLimiter: RepeatRateLimiter<LogEventKey> = RepeatRateLimiter(),
        infoRateLimiter: RepeatRateLimiter<LogEventKey> = RepeatRateLimiter(maxPerWindow: defaultInfoLinesPerMinute),
        warningBudgetPerMinute: Int = defaultWarningBudgetPerMinute,
        infoBudgetPerMinute: Int = defaultInfoBudgetPerMinute,
        clock: BoardClock = .system,
        writeLine: @escaping @Sendable (String) -> Void = StandardErrorWriter.writeLine
    ) {
        self.minimumLevel = minimumLevel
        self.formatter = LogLineFormatter(format: format)
        self.rateLimiter = rateLimiter
        self.infoRateLimiter = infoRateLimiter
        self.warningBudget = RepeatRateLimiter(maxPerWindow: warningBudgetPerMinute, windowMs: 60_000, maxKeys: 1)
        self.infoBudget = RepeatRateLimiter(maxPerWindow: infoBudgetPerMinute, windowMs: 60_000, maxKeys: 1)
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

    /// Logs `message` at `level`, limited by its call site; the message is built
    /// only when the level is shown.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String, fileID: StaticString = #fileID, line: UInt = #line) {
        guard level.isShown(atMinimum: minimumLevel) else { return }
        emit(level, CollectionOfOne(message()), key: LogEventKey(level: level, fileID: fileID, line: line))
    }

    /// Logs a message of the core, limited by its kind (unless it is exempt).
    public func log(_ level: LogLevel, message: LogMessage) {
        guard level.isShown(atMinimum: minimumLevel) else { return }
        emit(level, CollectionOfOne(message.text), key: message.isRateLimited ? LogEventKey(level: level, kind: message.kind) : nil)
    }

    /// Logs lines that belong together (a refused reload's report, its caret under
    /// the column) as one event: all of them, or none while their call site is
    /// being suppressed. Each line is bounded like any other.
    public func log(_ level: LogLevel, lines: @autoclosure () -> [String], fileID: StaticString = #fileID, line: UInt = #line) {
        guard level.isShown(atMinimum: minimumLevel) else { return }
        emit(level, lines(), key: LogEventKey(level: level, fileID: fileID, line: line))
    }

    public func error(_ message: @autoclosure () -> String, fileID: StaticString = #fileID, line: UInt = #line) {
        log(.error, message(), fileID: fileID, line: line)
    }

    public func warning(_ message: @autoclosure () -> String, fileID: StaticString = #fileID, line: UInt = #line) {
        log(.warning, message(), fileID: fileID, line: line)
    }

    public func info(_ message: @autoclosure () -> String, fileID: StaticString = #fileID, line: UInt = #line) {
        log(.info, message(), fileID: fileID, line: line)
    }

    public func debug(_ message: @autoclosure () -> String, fileID: StaticString = #fileID, line: UInt = #line) {
        log(.debug, message(), fileID: fileID, line: line)
    }

    /// Writes the summaries of rate-limit windows that have closed; call now and then
    /// (the daemon does after each batch of work) so a burst is summed up even when
    /// all goes quiet. Cheap: it looks at most once a second.
    public func flushSuppressed() {
        lock.withLock { _ in
            let nowMs = clock.monotonicMs()
            expireIfDue(nowMs: nowMs).forEach { writeSummary($0, nowMs: nowMs) }
        }
    }

    /// From now until `flushHeldLines`, info and debug lines are held to be written together.
    public func holdLines() {
        lock.withLock { _ in isHolding = true }
    }

    /// Writes the lines held (one write) and stops holding.
    public func flushHeldLines() {
        lock.withLock { _ in
            isHolding = false
            writeHeld()
        }
    }

    private func writeHeld() {
        guard !heldBytes.isEmpty else { return }
        let text = String(decoding: heldBytes, as: UTF8.self)
        heldBytes.removeAll(keepingCapacity: true)
        writeLine(text)
    }

    /// Writes `texts` unless the limiter of `level` holds back another event of
    /// `key` (nil: not limited) or the level's budget is spent; summaries of closed
    /// windows first. (A single line comes as `CollectionOfOne`: no array per line.)
    private func emit<Texts: Collection<String>>(_ level: LogLevel, _ texts: Texts, key: LogEventKey?) {
        lock.withLock { _ in
            let nowMs = clock.monotonicMs()
            var summaries = expireIfDue(nowMs: nowMs)
            var shouldEmit = true
            if let key {
                let example = texts.first ?? ""
                let verdict: RateLimitVerdict<LogEventKey>?
                switch level {
                case .error, .warning: verdict = rateLimiter.admit(key, example: example, nowMs: nowMs)
                case .info: verdict = infoRateLimiter.admit(key, example: example, nowMs: nowMs)
                case .debug: verdict = nil
                }
                summaries += verdict?.summaries ?? []
                shouldEmit = verdict?.shouldEmit ?? true
            }
            summaries.forEach { writeSummary($0, nowMs: nowMs) }
            if shouldEmit, key == nil || withinBudget(level, example: texts.first ?? "", nowMs: nowMs) {
                texts.forEach { write(level, $0) }
            }
        }
    }

    /// Whether the budget of `level` lets one more line through at `nowMs`; writes the
    /// summary of its previous minute first when that minute held lines back.
    private func withinBudget(_ level: LogLevel, example: String, nowMs: Int64) -> Bool {
        let verdict: RateLimitVerdict<LogLevel>
        switch level {
        case .error, .warning: verdict = warningBudget.admit(.warning, example: example, nowMs: nowMs)
        case .info: verdict = infoBudget.admit(.info, example: example, nowMs: nowMs)
        case .debug: return true
        }
        verdict.summaries.forEach(writeBudgetSummary)
        return verdict.shouldEmit
    }

    /// Expired windows, checked at most once a second to keep `log` cheap.
    private func expireIfDue(nowMs: Int64) -> [SuppressionSummary<LogEventKey>] {
        if let lastExpiryCheckMs, nowMs - lastExpiryCheckMs < 1_000 { return [] }
        lastExpiryCheckMs = nowMs
        return expire(nowMs: nowMs)
    }

    private func expire(nowMs: Int64) -> [SuppressionSummary<LogEventKey>] {
        let budgetSummaries = warningBudget.expire(nowMs: nowMs) + infoBudget.expire(nowMs: nowMs)
        budgetSummaries.forEach(writeBudgetSummary)
        return rateLimiter.expire(nowMs: nowMs) + infoRateLimiter.expire(nowMs: nowMs)
    }

    /// A kind's summary counts against its level's budget like any line.
    private func writeSummary(_ summary: SuppressionSummary<LogEventKey>, nowMs: Int64) {
        let noun = summary.suppressedCount == 1 ? "message" : "messages"
        let text = "suppressed \(summary.suppressedCount) similar \(noun): \(summary.example)"
        guard withinBudget(summary.key.level, example: text, nowMs: nowMs) else { return }
        write(summary.key.level, text)
    }

    private func writeBudgetSummary(_ summary: SuppressionSummary<LogLevel>) {
        let noun = summary.suppressedCount == 1 ? "message" : "messages"
        let budget = summary.key == .info ? infoBudget.maxPerWindow : warningBudget.maxPerWindow
        let what = summary.key == .info ? "info lines" : "errors and warnings"
        write(summary.key, "suppressed \(summary.suppressedCount) more \(noun) (log budget: \(budget) \(what) a minute); "
            + "the last: \(summary.example)")
    }

    /// Formats one line: written at once, or, while holding, appended to the held
    /// bytes (no `String` per held line; one for all of them when they are written).
    private func write(_ level: LogLevel, _ text: String) {
        let epochMs = clock.wallClockEpochMs()
        guard isHolding, level >= .info else {
            writeHeld()
            var bytes: [UInt8] = []
            formatter.append(level: level, message: text, epochMs: epochMs, to: &bytes, clock: &stampClock)
            writeLine(String(decoding: bytes, as: UTF8.self))
            return
        }
        if !heldBytes.isEmpty { heldBytes.append(UInt8(ascii: "\n")) }
        formatter.append(level: level, message: text, epochMs: epochMs, to: &heldBytes, clock: &stampClock)
        if heldBytes.count >= Self.maxHeldBytes { writeHeld() }
    }
}
