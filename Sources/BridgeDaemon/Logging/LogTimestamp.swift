/// Formats wall-clock times as ISO-8601 UTC with milliseconds, e.g.
/// `2026-11-29T23:00:11.123Z`, with integer arithmetic only (no calendar, no locale).
public enum LogTimestamp {
    /// Formats milliseconds since 1970-01-01T00:00:00Z (negative values clamp to 0).
    public static func format(epochMs: Int64) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        append(epochMs: epochMs, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The length of a timestamp of years 0-9999: `2026-11-29T23:00:11.123Z`.
    static let byteCount = 24

    /// Appends the timestamp's ASCII bytes to `bytes` (a log line is built in one
    /// buffer, with no intermediate strings).
    static func append(epochMs: Int64, to bytes: inout [UInt8]) {
        let milliseconds = max(0, epochMs)
        let days = milliseconds / 86_400_000
        let millisecondOfDay = milliseconds % 86_400_000
        let date = civilDate(daysSinceEpoch: days)
        let secondOfDay = millisecondOfDay / 1_000
        appendDigits(date.year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(date.month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(date.day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(secondOfDay / 3_600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(millisecondOfDay % 1_000, width: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// The date and time of the last second a line was stamped in, kept so the lines
    /// of one second (a press's few) compute the calendar once: only the
    /// milliseconds are written afresh.
    struct SecondCache {
        private var epochSecond: Int64 = -1
        /// `2026-11-29T23:00:11.` of `epochSecond`.
        private var prefix: [UInt8] = []

        /// Appends the timestamp of `epochMs` (as `LogTimestamp.append`) to `bytes`.
        mutating func append(epochMs: Int64, to bytes: inout [UInt8]) {
            let milliseconds = max(0, epochMs)
            let second = milliseconds / 1_000
            if second != epochSecond {
                prefix.removeAll(keepingCapacity: true)
                LogTimestamp.append(epochMs: second * 1_000, to: &prefix)
                prefix.removeLast(4)  // "000Z"
                epochSecond = second
            }
            bytes.append(contentsOf: prefix)
            LogTimestamp.appendDigits(milliseconds % 1_000, width: 3, to: &bytes)
            bytes.append(UInt8(ascii: "Z"))
        }
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

    /// The decimal digits of a non-negative `value` (a year, at most 9 digits), zero-padded to at least `width`.
    fileprivate static func appendDigits(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        var divisor: Int64 = 1
        var digitCount = 1
        while digitCount < width || value / divisor >= 10 {
            divisor *= 10
            digitCount += 1
        }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / divisor % 10))
            divisor /= 10
        }
    }
}
