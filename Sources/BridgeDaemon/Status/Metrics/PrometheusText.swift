/// Writes the Prometheus text exposition format (version 0.0.4): `# HELP` and
/// `# TYPE` per family, then one sample per line, label values escaped.
public struct PrometheusText {
    /// The media type of the format.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public private(set) var text = ""

    public init() {}

    /// Starts a metric family.
    public mutating func family(_ name: String, type: String, help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type)\n"
    }

    /// One sample line: `name{label="value",...} value`.
    public mutating func sample(_ name: String, labels: [(String, String)] = [], value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escapeLabelValue($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + value + "\n"
    }

    /// A label value with `\`, `"` and line feeds escaped.
    public static func escapeLabelValue(_ value: String) -> String {
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// HELP text with `\` and line feeds escaped.
    public static func escapeHelp(_ help: String) -> String {
        var escaped = ""
        for scalar in help.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Microseconds as decimal seconds without trailing zeros: 2500 -> "0.0025",
    /// 1000000 -> "1", -1500 -> "-0.0015".
    public static func seconds(microseconds: Int64) -> String {
        let sign = microseconds < 0 ? "-" : ""
        let magnitude = microseconds.magnitude
        let whole = magnitude / 1_000_000
        let fraction = magnitude % 1_000_000
        guard fraction != 0 else { return sign + String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return sign + String(whole) + "." + digits
    }
}
