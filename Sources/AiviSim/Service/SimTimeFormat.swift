import BridgeCore

/// Renders instants as the service does: ISO 8601 UTC with milliseconds
/// (`2026-11-29T21:00:00.120Z`) and the HTTP `Date` form (`Sun, 29 Nov 2026 21:00:00 GMT`),
/// on the project's one calendar (`CivilDate`).
public enum SimTimeFormat {
    private static let weekdayNames = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `2026-11-29T21:00:00.120Z`.
    public static func iso8601(ms: Int64) -> String {
        ISO8601Timestamp.text(epochMs: ms)
    }

    /// `Sun, 29 Nov 2026 21:00:00 GMT` (IMF-fixdate, RFC 9110).
    public static func httpDate(ms: Int64) -> String {
        let (days, msOfDay) = CivilDate.split(epochMs: ms)
        let date = CivilDate(daysSinceEpoch: days)
        let weekday = weekdayNames[Int(((days % 7) + 7) % 7)]
        return "\(weekday), \(pad(date.day, 2)) \(monthNames[Int(date.month) - 1]) \(pad(date.year, 4)) "
            + "\(pad(msOfDay / 3_600_000, 2)):\(pad(msOfDay / 60_000 % 60, 2)):\(pad(msOfDay / 1000 % 60, 2)) GMT"
    }

    /// Milliseconds since the epoch of a UTC calendar time.
    public static func epochMs(year: Int64, month: Int64, day: Int64,
                               hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, ms: Int64 = 0) -> Int64 {
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        return days * CivilDate.msPerDay + ((hour * 60 + minute) * 60 + second) * 1000 + ms
    }

    private static func pad(_ number: Int64, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
