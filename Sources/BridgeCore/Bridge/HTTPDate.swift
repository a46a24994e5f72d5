/// Reads an HTTP `Date` header (IMF-fixdate, RFC 9110: `Sun, 29 Nov 2026 21:00:00 GMT`)
/// into milliseconds since the Unix epoch: how the shell learns the server's clock.
public enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public static func milliseconds(from text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT",
              let day = Int64(parts[1]),
              let monthIndex = months.firstIndex(of: String(parts[2])),
              let year = Int64(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int64(clock[0]), let minute = Int64(clock[1]), let second = Int64(clock[2]),
              (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = ISO8601Timestamp.daysSinceEpoch(year: year, month: Int64(monthIndex + 1), day: day)
        return (((days * 24 + hour) * 60 + minute) * 60 + second) * 1000
    }

    /// The server's clock minus another clock, from a `Date` header received at
    /// `receivedAtMs` on that clock. The header is truncated to the second, so
    /// the middle of that second is the best estimate.
    public static func serverClockOffsetMs(dateHeader: String, receivedAtMs: Int64) -> Int64? {
        milliseconds(from: dateHeader).map { $0 + 500 - receivedAtMs }
    }
}
