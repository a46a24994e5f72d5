/// Formatting of measured values for the table.
enum Figure {
    /// `1.234 ms` from microseconds.
    static func milliseconds(us: Int64) -> String {
        let sign = us < 0 ? "-" : ""
        let magnitude = us < 0 ? -us : us
        return "\(sign)\(magnitude / 1000).\(padded(magnitude % 1000, digits: 3)) ms"
    }

    /// `12.3 µs` from nanoseconds (not negative).
    static func microseconds(ns: Int64) -> String {
        "\(ns / 1000).\(padded(ns % 1000 / 100, digits: 1)) µs"
    }

    /// `12.3 MB` (MiB) from kibibytes.
    static func megabytes(kB: Int64) -> String {
        "\(kB / 1024).\(kB % 1024 * 10 / 1024) MB"
    }

    /// `0.012 %` from thousandths of a percent.
    static func percent(milli: Int64) -> String {
        "\(milli / 1000).\(padded(milli % 1000, digits: 3)) %"
    }

    /// `3.4` from tenths.
    static func decimal(tenths: Int64) -> String {
        "\(tenths / 10).\(tenths % 10)"
    }

    /// `3.45` from hundredths (not negative).
    static func hundredths(_ value: Int64) -> String {
        "\(value / 100).\(padded(value % 100, digits: 2))"
    }

    static func padded(_ value: Int64, digits: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
