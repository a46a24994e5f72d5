/// ISO 8601 timestamps, both ways: reads those of event envelopes into
/// milliseconds since the Unix epoch (`2026-11-29T21:00:05.120Z`, with or without
/// fractions, with `Z` or a `+hh:mm` / `-hh:mm` offset), and writes instants in
/// UTC with milliseconds (the log's stamps, the simulator's envelopes).
public enum ISO8601Timestamp {
    /// The length of a written timestamp of years 0-9999: `2026-11-29T23:00:11.123Z`.
    public static let byteCount = 24

    /// `epochMs` as `2026-11-29T23:00:11.123Z` (before 1970 too: -1 is
    /// `1969-12-31T23:59:59.999Z`; a year past 9999 takes more digits).
    public static func text(epochMs: Int64) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        append(epochMs: epochMs, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text(epochMs:)`'s ASCII bytes to `bytes` (a log line is built in
    /// one buffer, with no intermediate strings).
    public static func append(epochMs: Int64, to bytes: inout [UInt8]) {
        let (days, msOfDay) = CivilDate.split(epochMs: epochMs)
        let date = CivilDate(daysSinceEpoch: days)
        if date.year < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(date.year.magnitude, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(UInt64(date.month), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(UInt64(date.day), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        let secondOfDay = UInt64(msOfDay / 1_000)
        appendDigits(secondOfDay / 3_600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(UInt64(msOfDay % 1_000), width: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// The decimal digits of `value`, zero-padded to at least `width`.
    public static func appendDigits(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        var divisor: UInt64 = 1
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

    public static func milliseconds(from text: String) -> Int64? {
        milliseconds(utf8: Array(text.utf8))
    }

    /// The same from the text's UTF-8 bytes (a JSON string read as bytes).
    public static func milliseconds(utf8 bytes: [UInt8]) -> Int64? {
        guard bytes.count >= 20,
              let year = number(bytes, 0, 4), bytes[4] == UInt8(ascii: "-"),
              let month = number(bytes, 5, 2), bytes[7] == UInt8(ascii: "-"),
              let day = number(bytes, 8, 2),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              let hour = number(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"),
              let minute = number(bytes, 14, 2), bytes[16] == UInt8(ascii: ":"),
              let second = number(bytes, 17, 2),
              (1...12).contains(month), (1...31).contains(day),
              hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        let fractionMs = fraction(bytes, &index)
        guard let offsetMs = zoneOffsetMs(bytes, index) else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        return seconds * 1000 + fractionMs - offsetMs
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int64? {
        guard start + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[start..<start + count] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func fraction(_ bytes: [UInt8], _ index: inout Int) -> Int64 {
        guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return 0 }
        index += 1
        var milliseconds: Int64 = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            if digits < 3 { milliseconds = milliseconds * 10 + Int64(bytes[index] - UInt8(ascii: "0")) }
            digits += 1
            index += 1
        }
        for _ in min(digits, 3)..<3 { milliseconds *= 10 }
        return milliseconds
    }

    private static func zoneOffsetMs(_ bytes: [UInt8], _ index: Int) -> Int64? {
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            return index + 1 == bytes.count ? 0 : nil
        }
        guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
              let hours = number(bytes, index + 1, 2), let minutes = number(bytes, index + 4, 2)
        else { return nil }
        let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : (bytes[index] == UInt8(ascii: "+") ? 1 : 0)
        guard sign != 0 else { return nil }
        return sign * (hours * 60 + minutes) * 60_000
    }}
