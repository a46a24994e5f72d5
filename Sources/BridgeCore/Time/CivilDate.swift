/// A day of the proleptic Gregorian calendar in UTC, and the project's one
/// conversion between a date and a count of days since 1970-01-01 (Howard
/// Hinnant's `days_from_civil` and `civil_from_days`, integer arithmetic only).
/// ISO 8601 and HTTP dates, the log's timestamps and the simulator's clock all
/// go through it.
public struct CivilDate: Sendable, Equatable {
    /// Milliseconds in a day (no leap seconds: Unix time).
    public static let msPerDay: Int64 = 86_400_000

    /// The year (0 is 1 BC), the month (1 for January to 12) and the day of the month (1 to 31).
    public var year, month, day: Int64

    public init(year: Int64, month: Int64, day: Int64) {
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The date `daysSinceEpoch` days after 1970-01-01 (before it when negative).
    public init(daysSinceEpoch days: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to this date (negative before it). The fields are
    /// not checked: a day past its month's end counts on into the next month
    /// (the parsers range-check before they ask).
    public var daysSinceEpoch: Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day an instant falls in and the milliseconds since that day's
    /// midnight, rounding down: -1 ms is 1969-12-31 at 86 399 999 ms.
    public static func split(epochMs: Int64) -> (daysSinceEpoch: Int64, msOfDay: Int64) {
        let (days, remainder) = epochMs.quotientAndRemainder(dividingBy: msPerDay)
        return remainder < 0 ? (days - 1, remainder + msPerDay) : (days, remainder)
    }

}
