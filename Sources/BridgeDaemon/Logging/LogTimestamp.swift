import BridgeCore

/// The log's timestamps: ISO-8601 UTC with milliseconds, e.g.
/// `2026-11-29T23:00:11.123Z`, written by `ISO8601Timestamp` (integer arithmetic
/// only: no calendar, no locale); a clock before 1970 stamps 1970.
public enum LogTimestamp {
    /// Formats milliseconds since 1970-01-01T00:00:00Z (negative values clamp to 0).
    public static func format(epochMs: Int64) -> String {
        ISO8601Timestamp.text(epochMs: max(0, epochMs))
    }

    /// The length of a timestamp of years 0-9999: `2026-11-29T23:00:11.123Z`.
    static let byteCount = ISO8601Timestamp.byteCount

    /// Appends the timestamp's ASCII bytes to `bytes` (a log line is built in one
    /// buffer, with no intermediate strings).
    static func append(epochMs: Int64, to bytes: inout [UInt8]) {
        ISO8601Timestamp.append(epochMs: max(0, epochMs), to: &bytes)
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
            ISO8601Timestamp.appendDigits(UInt64(milliseconds % 1_000), width: 3, to: &bytes)
            bytes.append(UInt8(ascii: "Z"))
        }
    }
}
