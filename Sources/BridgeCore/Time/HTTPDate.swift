/// Reads an HTTP `Date` header (IMF-fixdate, RFC 9110: `Sun, 29 Nov 2026 21:00:00 GMT`)
/// into milliseconds since the Unix epoch: how the shell learns the server's clock.
///
/// Every field is range-checked before any arithmetic (years 1 to 9999, hours
/// 0 to 23, ...), so a hostile header is refused instead of overflowing.
public enum HTTPDate {
    /// How far the clock estimate from one `Date` header may be off: the header
    /// is cut to the whole second (the estimate takes its middle, ±500 ms) and
    /// was written before the answer crossed the network; 1 s bounds both.
    public static let uncertaintyMs: Int64 = 1_000

    /// The largest server-minus-board clock offset believed (a day): a `Date`
    /// of year 1 or 9999 would make no press expire, or every one, and forget
    /// every id at once. A larger one is ignored (and said once).
    public static let maxPlausibleOffsetMs: Int64 = 86_400_000

    /// Whether an offset measured from a `Date` header is to be believed.
    public static func isPlausible(offsetMs: Int64) -> Bool {
        offsetMs.magnitude <= UInt64(maxPlausibleOffsetMs)
    }

    /// How far the estimate may be off `ageMs` after the header was read: the
    /// header's `uncertaintyMs` plus the board clock's drift since (100 ppm).
    public static func uncertaintyMs(ageMs: Int64) -> Int64 {
        uncertaintyMs.addingSaturating(max(0, ageMs) / 10_000)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public static func milliseconds(from text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT",
              let day = digits(parts[1], maxCount: 2), (1...31).contains(day),
              let monthIndex = months.firstIndex(of: String(parts[2])),
              let year = digits(parts[3], maxCount: 4), (1...9999).contains(year)
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3,
              let hour = digits(clock[0], maxCount: 2), let minute = digits(clock[1], maxCount: 2),
              let second = digits(clock[2], maxCount: 2),
              hour < 24, minute < 60, second < 61
        else { return nil }
        let days = CivilDate(year: year, month: Int64(monthIndex + 1), day: day).daysSinceEpoch
        return (((days * 24 + hour) * 60 + minute) * 60 + second) * 1000
    }

    /// The server's clock minus another clock, from a `Date` header received at
    /// `receivedAtMs` on that clock. The header is truncated to the second, so
    /// the middle of that second is the best estimate.
    public static func serverClockOffsetMs(dateHeader: String, receivedAtMs: Int64) -> Int64? {
        milliseconds(from: dateHeader).map { $0.addingSaturating(500).subtractingSaturating(receivedAtMs) }
    }

    /// 1 to `maxCount` ASCII digits, nothing else (no sign, no spaces).
    static func digits(_ text: Substring, maxCount: Int) -> Int64? {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= maxCount else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
