/// Renders instants as the service does: ISO 8601 UTC with milliseconds
/// (`2026-11-29T21:00:00.120Z`) and the HTTP `Date` form (`Sun, 29 Nov 2026 21:00:00 GMT`).
public enum SimTimeFormat {
    private static let msPerDay: Int64 = 86_400_000
    private static let weekdayNames = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `2026-11-29T21:00:00.120Z`.
    public static func iso8601(ms: Int64) -> String {
        let parts = CivilTime(ms: ms)
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T"
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2)).\(pad(parts.millisecond, 3))Z"
    }

    /// `Sun, 29 Nov 2026 21:00:00 GMT` (IMF-fixdate, RFC 9110).
    public static func httpDate(ms: Int64) -> String {
        let parts = CivilTime(ms: ms)
        let weekday = weekdayNames[Int(((parts.days % 7) + 7) % 7)]
        return "\(weekday), \(pad(parts.day, 2)) \(monthNames[Int(parts.month) - 1]) \(pad(parts.year, 4)) "
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2)) GMT"
    }

    /// Milliseconds since the epoch of a UTC calendar time.
    public static func epochMs(year: Int64, month: Int64, day: Int64,
                               hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, ms: Int64 = 0) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * msPerDay + ((hour * 60 + minute) * 60 + second) * 1000 + ms
    }

    private static func pad(_ number: Int64, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// A UTC calendar breakdown (days-from-civil inverse, H. Hinnant's algorithm).
    private struct CivilTime {
        let days: Int64, year: Int64, month: Int64, day: Int64
        let hour: Int64, minute: Int64, second: Int64, millisecond: Int64

        init(ms: Int64) {
            let floorDays = ms >= 0 ? ms / msPerDay : (ms - msPerDay + 1) / msPerDay
            let msOfDay = ms - floorDays * msPerDay
            days = floorDays
            let shifted = floorDays + 719_468
            let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
            let dayOfEra = shifted - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let monthPrime = (5 * dayOfYear + 2) / 153
            day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
            month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
            year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
            hour = msOfDay / 3_600_000
            minute = msOfDay / 60_000 % 60
            second = msOfDay / 1000 % 60
            millisecond = msOfDay % 1000
        }
    }
}
