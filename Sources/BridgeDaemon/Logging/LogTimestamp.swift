/// Formats wall-clock times as ISO-8601 UTC with milliseconds, e.g.
/// `2026-11-29T23:00:11.123Z`, with integer arithmetic only (no calendar, no locale).
public enum LogTimestamp {
    /// Formats milliseconds since 1970-01-01T00:00:00Z (negative values clamp to 0).
    public static func format(epochMs: Int64) -> String {
        let milliseconds = max(0, epochMs)
        let days = milliseconds / 86_400_000
        let millisecondOfDay = milliseconds % 86_400_000
        let date = civilDate(daysSinceEpoch: days)
        let secondOfDay = millisecondOfDay / 1_000
        return "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))"
            + "T\(pad(secondOfDay / 3_600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
            + ".\(pad(millisecondOfDay % 1_000, 3))Z"
    }

    /// Year, month and day of a non-negative day count since 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = daysSinceEpoch + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
