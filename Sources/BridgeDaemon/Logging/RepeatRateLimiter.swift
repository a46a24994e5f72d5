/// Limits events of one key (a kind of message): at most `maxPerWindow` per key in a
/// window of `windowMs` that starts with the key's first event; the rest are counted,
/// and when the window closes the count comes back as a `SuppressionSummary`
/// ("suppressed K similar messages: <the last one held back>"). Remembers at most
/// `maxKeys` keys, and of each an example of at most `maxExampleCharacters`. Pure:
/// time is passed in.
public struct RepeatRateLimiter<Key: Hashable & Sendable>: Sendable {
    /// Events let through per key and window (at least 1).
    public let maxPerWindow: Int
    /// Window length in milliseconds (at least 1).
    public let windowMs: Int64
    /// Keys remembered at once (at least 1); the oldest window is dropped first.
    public let maxKeys: Int
    /// Characters kept of the last event held back, for the summary.
    public static var maxExampleCharacters: Int { 240 }

    private var windows: [Key: Window] = [:]

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

    /// Decides about one event of `key` at `nowMs` (a monotonic clock); `example`
    /// (cut) names the event in the summary when it is held back.
    public mutating func admit(_ key: Key, example: String = "", nowMs: Int64) -> RateLimitVerdict<Key> {
        var summaries: [SuppressionSummary<Key>] = []
        if let window = windows[key], isExpired(window, nowMs: nowMs) {
            summaries += close(key)
        }
        if var window = windows[key] {
            if window.emittedCount < maxPerWindow {
                window.emittedCount += 1
                windows[key] = window
                return RateLimitVerdict(shouldEmit: true, summaries: summaries)
            }
            window.suppressedCount += 1
            window.example = String(example.prefix(Self.maxExampleCharacters))
            windows[key] = window
            return RateLimitVerdict(shouldEmit: false, summaries: summaries)
        }
        summaries += makeRoom(nowMs: nowMs)
        windows[key] = Window(startMs: nowMs, emittedCount: 1, suppressedCount: 0, example: "")
        return RateLimitVerdict(shouldEmit: true, summaries: summaries)
    }

    /// Forgets every window that has closed by `nowMs`, returning the suppression counts.
    public mutating func expire(nowMs: Int64) -> [SuppressionSummary<Key>] {
        let expiredKeys = windows.filter { isExpired($0.value, nowMs: nowMs) }.map(\.key)
        return expiredKeys.flatMap { close($0) }
    }

    private func isExpired(_ window: Window, nowMs: Int64) -> Bool {
        nowMs - window.startMs >= windowMs
    }

    /// Removes `key`; a summary when events were suppressed in its window.
    private mutating func close(_ key: Key) -> [SuppressionSummary<Key>] {
        guard let window = windows.removeValue(forKey: key), window.suppressedCount > 0 else { return [] }
        return [SuppressionSummary(key: key, suppressedCount: window.suppressedCount, example: window.example)]
    }

    /// Frees one slot when full: expired windows first, else the oldest one.
    private mutating func makeRoom(nowMs: Int64) -> [SuppressionSummary<Key>] {
        guard windows.count >= maxKeys else { return [] }
        var summaries = expire(nowMs: nowMs)
        while windows.count >= maxKeys, let oldest = windows.min(by: { $0.value.startMs < $1.value.startMs }) {
            summaries += close(oldest.key)
        }
        return summaries
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
