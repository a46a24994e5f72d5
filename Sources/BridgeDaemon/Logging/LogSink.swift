import BridgeCore
import ShellSupport
import Synchronization

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
/// While the daemon's loop works through a batch it holds its info and debug lines
/// (`holdLines`) and writes them in one `write(2)` when the batch is done
/// (`flush`, before the loop sleeps): a press's three info lines cost one system
/// call, not three, and one turn of the lock: a held line is kept, with the
/// clocks as they were, on the holding thread alone and judged by the limits when
/// the batch is done. Held lines keep their order with that thread's other lines;
/// an error or a warning of it, or more than `maxHeldBytes`, writes what is held
/// at once. Another thread's lines are never held (they may come before lines
/// the loop held earlier).
public final class LogSink: @unchecked Sendable {
    /// Events less important than this are dropped.
    public let minimumLevel: LogLevel
    /// Journal or plain lines.
    public let formatter: LogLineFormatter

    private let clock: BoardClock
    private let writeLine: @Sendable (String) -> Void
    /// Guards the limiters and `heldBytes` (the one lock, `ConditionLock`, with nothing to wait for).
    private let lock = ConditionLock(())
    private var rateLimiter: RepeatRateLimiter<LogEventKey>
    private var infoRateLimiter: RepeatRateLimiter<LogEventKey>
    /// The budget of all kinds together, keyed by level (errors count as warnings).
    private var warningBudget: RepeatRateLimiter<LogLevel>
    private var infoBudget: RepeatRateLimiter<LogLevel>
    /// When the windows were last looked at (`Int64.min`: never), and when the first
    /// open one closes (`Int64.max`: none is open): changed under the lock, read
    /// without it by `flush` to know whether it needs the lock at all (an idle
    /// daemon's wakes take none once its windows have closed).
    private let lastExpiryCheckMs = Atomic<Int64>(Int64.min)
    private let nextWindowClosingMs = Atomic<Int64>(Int64.max)
    /// The shortest window of the four limiters: one opened now closes no sooner.
    private let shortestWindowMs: Int64
    /// The holding thread's lines, formatted under the lock and joined by newlines,
    /// as bytes (at most `maxHeldBytes` and a line; written before the lock is let
    /// go; the storage is kept for the next batch).
    private var heldBytes: [UInt8] = []
    /// Under the lock: the lines being written are the holding thread's, into `heldBytes`.
    private var isWritingHeld = false
    /// The thread that holds its lines (`holdLines`), if one does.
    private let holdingThread = OwningThread()
    /// That thread's lines not judged yet (the holding thread only; empty when none holds).
    private let held = ThreadOwnedState(HeldEvents())
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
        let warningBudget = RepeatRateLimiter<LogLevel>(maxPerWindow: warningBudgetPerMinute, windowMs: 60_000, maxKeys: 1)
        let infoBudget = RepeatRateLimiter<LogLevel>(maxPerWindow: infoBudgetPerMinute, windowMs: 60_000, maxKeys: 1)
        self.warningBudget = warningBudget
        self.infoBudget = infoBudget
        self.clock = clock
        self.writeLine = writeLine
        shortestWindowMs = min(min(rateLimiter.windowMs, infoRateLimiter.windowMs),
                               min(warningBudget.windowMs, infoBudget.windowMs))
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
        let key = LogEventKey(level: level, fileID: fileID, line: line)
        if holds(level) { return hold(PendingEvent(level: level, text: message(), key: key, clock: clock)) }
        emit(level, CollectionOfOne(message()), key: key)
    }

    /// Logs a message of the core, limited by its kind (unless it is exempt).
    public func log(_ level: LogLevel, message: LogMessage) {
        guard level.isShown(atMinimum: minimumLevel) else { return }
        let key = message.isRateLimited ? LogEventKey(level: level, kind: message.kind) : nil
        if holds(level) { return hold(PendingEvent(level: level, text: message.text, key: key, clock: clock)) }
        emit(level, CollectionOfOne(message.text), key: key)
    }

    /// Logs lines that belong together (a refused reload's report, its caret under
    /// the column) as one event: all of them, or none while their call site is
    /// being suppressed. Each line is bounded like any other.
    public func log(_ level: LogLevel, lines: @autoclosure () -> [String], fileID: StaticString = #fileID, line: UInt = #line) {
        guard level.isShown(atMinimum: minimumLevel) else { return }
        let key = LogEventKey(level: level, fileID: fileID, line: line)
        if holds(level) {
            let all = lines()
            return hold(PendingEvent(level: level, text: all.first ?? "", moreLines: Array(all.dropFirst()), key: key, clock: clock))
        }
        emit(level, lines(), key: key)
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

    /// From now until `flush`, this thread's info and debug lines are held to be
    /// written together (the daemon's loop, for a batch). One thread holds at a
    /// time: while one does, another's call changes nothing.
    public func holdLines() {
        holdingThread.claim()
    }

    /// Writes the lines held (one write) and the summaries of rate-limit windows
    /// that have closed, and stops holding; call now and then, on the thread that
    /// holds when one does (the daemon does after each batch of work) so a burst is
    /// summed up even when all goes quiet. Cheap: with nothing held it takes the
    /// lock only when a window may have closed, at most once a second.
    public func flush() {
        let isHolding = isHoldingThread
        let nowMs = clock.monotonicMs()
        let isClosingDue = nowMs >= nextWindowClosingMs.load(ordering: .relaxed) && isExpiryDue(nowMs: nowMs)
        if (isHolding && !held.pointer.pointee.events.isEmpty) || isClosingDue {
            lock.withLock { _ in
                expireIfDue(nowMs: nowMs).forEach { writeSummary($0, nowMs: nowMs, epochMs: clock.wallClockEpochMs()) }
                if isHolding { writePending() }
                if isClosingDue { noteNextWindowClosing() }
            }
        }
        // Only once nothing is held: `held` passes to the next holder empty.
        if isHolding { holdingThread.release() }
    }

    /// At exit, after the last batch: what `flush` writes, then the summaries of
    /// the rate-limit windows still open (a burst just before a stop has nothing
    /// after it to close its window). The limiters start over empty.
    public func flushAtExit() {
        flush()
        let nowMs = clock.monotonicMs()
        lock.withLock { _ in
            let longestWindowMs = max(rateLimiter.windowMs, infoRateLimiter.windowMs, warningBudget.windowMs, infoBudget.windowMs)
            let pastEveryWindowMs = nowMs.addingSaturating(longestWindowMs)
            let epochMs = clock.wallClockEpochMs()
            expire(atMs: pastEveryWindowMs).forEach { writeSummary($0, nowMs: pastEveryWindowMs, epochMs: epochMs) }
        }
    }

    /// Whether the calling thread is the one holding its lines (only it touches `held`).
    private var isHoldingThread: Bool { holdingThread.isCurrent }

    /// Whether this thread holds a line of `level` rather than writing it now.
    private func holds(_ level: LogLevel) -> Bool {
        level >= .info && isHoldingThread
    }

    /// Keeps a line of the holding thread (no lock); what is held is judged and
    /// written once it reaches `maxHeldBytes`.
    private func hold(_ event: consuming PendingEvent) {
        let held = self.held.pointer
        held.pointee.byteCount += event.byteCount
        held.pointee.events.append(event)
        if held.pointee.byteCount >= Self.maxHeldBytes {
            lock.withLock { _ in writePending() }
        }
    }

    /// Under the lock: judges the held lines in order, at the clocks they were
    /// logged at, and writes the ones let through together.
    private func writePending() {
        let held = self.held.pointer
        guard !held.pointee.events.isEmpty else { return }
        isWritingHeld = true
        // Read in place: a copy of each line would retain its strings.
        held.pointee.events.withUnsafeBufferPointer { events in
            for index in events.indices {
                if events[index].moreLines.isEmpty {
                    emitLocked(events[index].level, CollectionOfOne(events[index].text), key: events[index].key,
                               nowMs: events[index].monotonicMs, epochMs: events[index].epochMs)
                } else {
                    emitLocked(events[index].level, [events[index].text] + events[index].moreLines, key: events[index].key,
                               nowMs: events[index].monotonicMs, epochMs: events[index].epochMs)
                }
            }
        }
        isWritingHeld = false
        held.pointee.events.removeAll(keepingCapacity: held.pointee.events.capacity <= Self.maxRecycledPending)
        held.pointee.byteCount = 0
        writeHeld()
    }

    /// Most held lines whose storage is kept for the next batch.
    private static var maxRecycledPending: Int { 64 }

    private func writeHeld() {
        guard !heldBytes.isEmpty else { return }
        let text = String(decoding: heldBytes, as: UTF8.self)
        heldBytes.removeAll(keepingCapacity: true)
        writeLine(text)
    }

    /// Writes `texts` unless the limiter of `level` holds back another event of
    /// `key` (nil: not limited) or the level's budget is spent; summaries of closed
    /// windows first. (A single line comes as `CollectionOfOne`: no array per line.)
    /// A warning or an error of the holding thread writes what it holds first.
    private func emit<Texts: Collection<String>>(_ level: LogLevel, _ texts: Texts, key: LogEventKey?) {
        lock.withLock { _ in
            if isHoldingThread { writePending() }
            emitLocked(level, texts, key: key, nowMs: clock.monotonicMs(), epochMs: clock.wallClockEpochMs())
        }
    }

    /// The same, under the lock, at the clocks given.
    private func emitLocked<Texts: Collection<String>>(_ level: LogLevel, _ texts: Texts, key: LogEventKey?, nowMs: Int64,
                                                       epochMs: Int64) {
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
        summaries.forEach { writeSummary($0, nowMs: nowMs, epochMs: epochMs) }
        if shouldEmit, key == nil || withinBudget(level, example: texts.first ?? "", nowMs: nowMs, epochMs: epochMs) {
            texts.forEach { write(level, $0, epochMs: epochMs) }
        }
        // A window may have opened now: it closes no sooner than this (exact again at `flush`).
        let closingMs = nowMs.addingSaturating(shortestWindowMs)
        if key != nil, closingMs < nextWindowClosingMs.load(ordering: .relaxed) {
            nextWindowClosingMs.store(closingMs, ordering: .relaxed)
        }
    }

    /// Whether the budget of `level` lets one more line through at `nowMs`; writes the
    /// summary of its previous minute first when that minute held lines back.
    private func withinBudget(_ level: LogLevel, example: String, nowMs: Int64, epochMs: Int64) -> Bool {
        let verdict: RateLimitVerdict<LogLevel>
        switch level {
        case .error, .warning: verdict = warningBudget.admit(.warning, example: example, nowMs: nowMs)
        case .info: verdict = infoBudget.admit(.info, example: example, nowMs: nowMs)
        case .debug: return true
        }
        verdict.summaries.forEach { writeBudgetSummary($0, epochMs: epochMs) }
        return verdict.shouldEmit
    }

    /// Under the lock: when the first open window closes, exactly (the four limiters read).
    private func noteNextWindowClosing() {
        let closingMs = min(min(rateLimiter.nextClosingMs, infoRateLimiter.nextClosingMs),
                            min(warningBudget.nextClosingMs, infoBudget.nextClosingMs))
        nextWindowClosingMs.store(closingMs, ordering: .relaxed)
    }

    /// Whether the windows are to be looked at again (at most once a second).
    private func isExpiryDue(nowMs: Int64) -> Bool {
        let lastMs = lastExpiryCheckMs.load(ordering: .relaxed)
        return lastMs == Int64.min || nowMs.subtractingSaturating(lastMs) >= 1_000
    }

    /// Expired windows, checked at most once a second to keep `log` cheap.
    private func expireIfDue(nowMs: Int64) -> [SuppressionSummary<LogEventKey>] {
        guard isExpiryDue(nowMs: nowMs) else { return [] }
        lastExpiryCheckMs.store(nowMs, ordering: .relaxed)
        return expire(atMs: nowMs)
    }

    /// Closes the windows expired at `nowMs`: writes the budgets' summaries, returns the kinds'.
    private func expire(atMs nowMs: Int64) -> [SuppressionSummary<LogEventKey>] {
        let budgetSummaries = warningBudget.expire(nowMs: nowMs) + infoBudget.expire(nowMs: nowMs)
        budgetSummaries.forEach { writeBudgetSummary($0, epochMs: clock.wallClockEpochMs()) }
        return rateLimiter.expire(nowMs: nowMs) + infoRateLimiter.expire(nowMs: nowMs)
    }

    /// A kind's summary counts against its level's budget like any line.
    private func writeSummary(_ summary: SuppressionSummary<LogEventKey>, nowMs: Int64, epochMs: Int64) {
        let noun = summary.suppressedCount == 1 ? "message" : "messages"
        let text = "suppressed \(summary.suppressedCount) similar \(noun): \(summary.example)"
        guard withinBudget(summary.key.level, example: text, nowMs: nowMs, epochMs: epochMs) else { return }
        write(summary.key.level, text, epochMs: epochMs)
    }

    private func writeBudgetSummary(_ summary: SuppressionSummary<LogLevel>, epochMs: Int64) {
        let noun = summary.suppressedCount == 1 ? "message" : "messages"
        let budget = summary.key == .info ? infoBudget.maxPerWindow : warningBudget.maxPerWindow
        let what = summary.key == .info ? "info lines" : "errors and warnings"
        write(summary.key, "suppressed \(summary.suppressedCount) more \(noun) (log budget: \(budget) \(what) a minute); "
            + "the last: \(summary.example)", epochMs: epochMs)
    }

    /// Formats one line: written at once, or, when it is the holding thread's,
    /// appended to the held bytes (no `String` per held line; one for all of them
    /// when they are written).
    private func write(_ level: LogLevel, _ text: String, epochMs: Int64) {
        guard isWritingHeld, level >= .info else {
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

/// The holding thread's lines, in order, and what their text costs.
private struct HeldEvents {
    var events: [PendingEvent] = []
    var byteCount = 0
}

/// A line the holding thread logged, with the clocks read when it was logged.
private struct PendingEvent {
    var level: LogLevel
    var text: String
    /// The lines after the first of one event (`log(_:lines:)`; usually none).
    var moreLines: [String] = []
    var key: LogEventKey?
    var monotonicMs: Int64
    var epochMs: Int64

    init(level: LogLevel, text: String, moreLines: [String] = [], key: LogEventKey?, clock: BoardClock) {
        self.level = level
        self.text = text
        self.moreLines = moreLines
        self.key = key
        monotonicMs = clock.monotonicMs()
        epochMs = clock.wallClockEpochMs()
    }

    /// What its text costs the held bytes, roughly (each line and a newline).
    var byteCount: Int {
        moreLines.reduce(text.utf8.count + 1) { $0 + $1.utf8.count + 1 }
    }
}
