/// Reads the ISO 8601 timestamps of event envelopes into milliseconds since the
/// Unix epoch: `2026-11-29T21:00:05.120Z`, with or without fractions, with `Z`
/// or a `+hh:mm` / `-hh:mm` offset.
public enum ISO8601Timestamp {
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
        let days = daysSinceEpoch(year: year, month: month, day: day)
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
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
