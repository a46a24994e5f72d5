import BridgeCore

/// Limits events of one key (a kind of message): at most `maxPerWindow` per key in a
/// window of `windowMs` that starts with the key's first event; the rest are counted,
/// and when the window closes the count comes back as a `SuppressionSummary`
/// ("suppressed K similar messages: <the last one held back>"). Remembers at most
/// `maxKeys` keys, and of each an example of at most `maxExampleCharacters`. When the
/// table is full of open windows, a new key never gets a fresh window of its own (that
/// would let more than `maxKeys` kinds defeat the limit): it shares one "other kinds"
/// window, itself limited to `maxPerWindow`, so at most `(maxKeys + 1) × maxPerWindow`
/// events pass per window whatever the number of keys. Pure: time is passed in.
public struct RepeatRateLimiter<Key: Hashable & Sendable>: Sendable {
    /// Events let through per key and window (at least 1).
    public let maxPerWindow: Int
    /// Window length in milliseconds (at least 1).
    public let windowMs: Int64
    /// Keys remembered at once (at least 1); closed windows are dropped first, then
    /// new keys share the "other kinds" window.
    public let maxKeys: Int
    /// Characters kept of the last event held back, for the summary.
    public static var maxExampleCharacters: Int { 240 }

    private var windows: [Key: Window] = [:]
    /// The window shared by keys that found the table full, and the key that opened it
    /// (its summary is reported under that key).
    private var otherKinds: (key: Key, window: Window)?
    /// No window in `windows` started before this (a lower bound: closing a window
    /// leaves it): `expire` looks at the windows only once one may have closed.
    private var earliestStartMs = Int64.max

    private struct Window: Sendable {
        var startMs: Int64
        var emittedCount: Int
        var suppressedCount: Int
        var example: String
    }

    /// Creates a limiter; the defaults allow 5 identical events per minute.
    public init(maxPerWindow: Int = 5, windowMs: Int64 = 60_000, maxKeys: Int = 256) {
        self.maxPerWindow = max(1, maxPerWindow)
        self.windowMs = max(1, windowMs)
        self.maxKeys = max(1, maxKeys)
    }

    /// Number of keys currently remembered (never above `maxKeys`).
    public var trackedKeyCount: Int { windows.count }

    /// No open window closes before this (`Int64.max`: none is open): `expire`
    /// finds nothing earlier.
    public var nextClosingMs: Int64 {
        var closingMs = windows.isEmpty ? Int64.max : earliestStartMs.addingSaturating(windowMs)
        if let otherKinds { closingMs = min(closingMs, otherKinds.window.startMs.addingSaturating(windowMs)) }
        return closingMs
    }

    /// Decides about one event of `key` at `nowMs` (a monotonic clock); `example`
    /// (cut) names the event in the summary when it is held back.
    public mutating func admit(_ key: Key, example: String = "", nowMs: Int64) -> RateLimitVerdict<Key> {
        var summaries: [SuppressionSummary<Key>] = []
        // One lookup of the key (hashing it is most of the cost), its window changed in place.
        if let index = windows.index(forKey: key) {
            if !isExpired(windows.values[index], nowMs: nowMs) {
                if windows.values[index].emittedCount < maxPerWindow {
                    windows.values[index].emittedCount += 1
                    return RateLimitVerdict(shouldEmit: true, summaries: [])
                }
                windows.values[index].suppressedCount += 1
                windows.values[index].example = LogEventKey.cut(example, toCharacters: Self.maxExampleCharacters)
                return RateLimitVerdict(shouldEmit: false, summaries: [])
            }
            summaries += close(key)
        }
        summaries += makeRoom(nowMs: nowMs)
        guard windows.count < maxKeys else {
            let verdict = admitOtherKind(key, example: example, nowMs: nowMs)
            return RateLimitVerdict(shouldEmit: verdict.shouldEmit, summaries: summaries + verdict.summaries)
        }
        windows[key] = Window(startMs: nowMs, emittedCount: 1, suppressedCount: 0, example: "")
        earliestStartMs = min(earliestStartMs, nowMs)
        return RateLimitVerdict(shouldEmit: true, summaries: summaries)
    }

    /// An event of a key that found the table full: counted in the shared window.
    private mutating func admitOtherKind(_ key: Key, example: String, nowMs: Int64) -> RateLimitVerdict<Key> {
        let summaries = closeOtherKinds(ifExpiredAt: nowMs)
        guard var shared = otherKinds else {
            otherKinds = (key, Window(startMs: nowMs, emittedCount: 1, suppressedCount: 0, example: ""))
            return RateLimitVerdict(shouldEmit: true, summaries: summaries)
        }
        if shared.window.emittedCount < maxPerWindow {
            shared.window.emittedCount += 1
            otherKinds = shared
            return RateLimitVerdict(shouldEmit: true, summaries: summaries)
        }
        shared.window.suppressedCount += 1
        shared.window.example = LogEventKey.cut(example, toCharacters: Self.maxExampleCharacters)
        otherKinds = shared
        return RateLimitVerdict(shouldEmit: false, summaries: summaries)
    }

    /// Closes the shared window when it has expired by `nowMs`.
    private mutating func closeOtherKinds(ifExpiredAt nowMs: Int64) -> [SuppressionSummary<Key>] {
        guard let shared = otherKinds, isExpired(shared.window, nowMs: nowMs) else { return [] }
        otherKinds = nil
        guard shared.window.suppressedCount > 0 else { return [] }
        return [SuppressionSummary(key: shared.key, suppressedCount: shared.window.suppressedCount,
                                   example: shared.window.example)]
    }

    /// Forgets every window that has closed by `nowMs`, returning the suppression counts.
    /// Cheap while no window can have closed (the earliest start is known).
    public mutating func expire(nowMs: Int64) -> [SuppressionSummary<Key>] {
        let (elapsedMs, overflow) = nowMs.subtractingReportingOverflow(earliestStartMs)
        let mayHaveClosed = !windows.isEmpty && (overflow ? nowMs > earliestStartMs : elapsedMs >= windowMs)
        guard mayHaveClosed else { return closeOtherKinds(ifExpiredAt: nowMs) }
        var expiredKeys: [Key] = []
        var earliest = Int64.max
        for (key, window) in windows {
            if isExpired(window, nowMs: nowMs) { expiredKeys.append(key) } else { earliest = min(earliest, window.startMs) }
        }
        earliestStartMs = earliest
        return expiredKeys.flatMap { close($0) } + closeOtherKinds(ifExpiredAt: nowMs)
    }

    private func isExpired(_ window: Window, nowMs: Int64) -> Bool {
        nowMs - window.startMs >= windowMs
    }

    /// Removes `key`; a summary when events were suppressed in its window.
    private mutating func close(_ key: Key) -> [SuppressionSummary<Key>] {
        guard let window = windows.removeValue(forKey: key), window.suppressedCount > 0 else { return [] }
        return [SuppressionSummary(key: key, suppressedCount: window.suppressedCount, example: window.example)]
    }

    /// Frees slots when full by closing expired windows; an open window is never
    /// dropped (its key would come back with a fresh one).
    private mutating func makeRoom(nowMs: Int64) -> [SuppressionSummary<Key>] {
        guard windows.count >= maxKeys else { return [] }
        return expire(nowMs: nowMs)
    }
}

/// What `RepeatRateLimiter.admit` decided.
public struct RateLimitVerdict<Key: Hashable & Sendable>: Equatable, Sendable {
    /// Write this event.
    public let shouldEmit: Bool
    /// Closed windows to report first ("suppressed K similar messages").
    public let summaries: [SuppressionSummary<Key>]

    public init(shouldEmit: Bool, summaries: [SuppressionSummary<Key>]) {
        self.shouldEmit = shouldEmit
        self.summaries = summaries
    }
}

/// How many events of `key` were held back in a window that has closed.
public struct SuppressionSummary<Key: Hashable & Sendable>: Equatable, Sendable {
    public let key: Key
    public let suppressedCount: Int
    /// The last event held back (cut), to show what kind of message it was.
    public let example: String

    public init(key: Key, suppressedCount: Int, example: String = "") {
        self.key = key
        self.suppressedCount = suppressedCount
        self.example = example
    }
}
