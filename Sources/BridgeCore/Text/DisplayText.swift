/// Makes text from hostile places (a config file, the network, a broker) safe
/// and short enough to show on a terminal or write to the journal: no raw
/// control characters, and long text cut to an excerpt with a visible marker.
public enum DisplayText {
    /// True for characters a terminal or the journal may act on instead of
    /// printing: C0 and C1 controls, DEL, the Unicode line and paragraph
    /// separators, and the bidirectional overrides and isolates.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` with every control character (tab included) written as an
    /// escape: `\n`, `\r`, `\t`, else `\u{1B}`.
    public static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The first `maxScalars` characters of `text` and a marker naming how
    /// many more there were (`…[+1234]`), or `text` itself when short enough.
    public static func prefix(_ text: String, maxScalars: Int) -> String {
        let scalars = text.unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: max(0, maxScalars), limitedBy: scalars.endIndex),
              cut != scalars.endIndex else { return text }
        let rest = scalars.distance(from: cut, to: scalars.endIndex)
        return String(scalars[..<cut]) + "…[+\(rest)]"
    }

    /// `text` with its middle cut out when longer than `maxScalars`: the head
    /// and the last `tailScalars` characters, joined by a marker (`…[1234 cut]…`).
    public static func excerpt(_ text: String, maxScalars: Int, tailScalars: Int) -> String {
        let scalars = text.unicodeScalars
        let count = scalars.count
        guard count > maxScalars else { return text }
        let tail = min(tailScalars, maxScalars / 2)
        let head = maxScalars - tail
        let headEnd = scalars.index(scalars.startIndex, offsetBy: head)
        let tailStart = scalars.index(scalars.endIndex, offsetBy: -tail)
        return String(scalars[..<headEnd]) + "…[\(count - head - tail) cut]…" + String(scalars[tailStart...])
    }

    /// Text quoted in a message: control characters escaped, cut to
    /// `maxScalars` with a marker.
    public static func quoted(_ text: String, maxScalars: Int = 80) -> String {
        // Printable ASCII within the limit (an event id, most names) is shown as
        // it is: nothing to escape, nothing to cut (one scalar per byte).
        if text.utf8.count <= maxScalars, text.utf8.allSatisfy(isPrintableASCII) { return text }
        return escapingControls(prefix(text, maxScalars: maxScalars))
    }

    /// A byte from space to `~`: one scalar, never a control.
    static func isPrintableASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }

    /// The text with its first letter in upper case ("fan on" -> "Fan on", "jammed" -> "Jammed").
    public static func sentenceStart(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}
