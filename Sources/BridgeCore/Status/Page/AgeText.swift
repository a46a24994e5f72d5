/// Durations and ages as a person reads them on the status page.
public enum AgeText {
    /// "just now", "12 s ago", "3 min ago", "2 h ago", "4 d ago"; a time in the
    /// future (a clock step) reads "just now".
    public static func ago(_ atMs: Int64, nowMs: Int64) -> String {
        let elapsedMs = nowMs.subtractingSaturating(atMs)
        guard elapsedMs >= 1_000 else { return "just now" }
        return duration(ms: elapsedMs) + " ago"
    }

    /// "350 ms", "12 s", "3 min", "2 h", "4 d".
    public static func duration(ms: Int64) -> String {
        let milliseconds = max(0, ms)
        if milliseconds < 1_000 { return "\(milliseconds) ms" }
        let seconds = milliseconds / 1_000
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 2 * 3_600 { return "\(seconds / 60) min" }
        if seconds < 2 * 86_400 { return "\(seconds / 3_600) h" }
        return "\(seconds / 86_400) d"
    }
}
