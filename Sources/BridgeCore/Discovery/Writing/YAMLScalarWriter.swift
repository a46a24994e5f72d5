/// Writes a text value so the config language reads it back as the same text:
/// plain when that is unambiguous, else quoted.
enum YAMLScalarWriter {
    static func scalar(_ text: String) -> String {
        isPlainSafe(text) ? text : quoted(text)
    }

    static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        guard case .string = YAMLScalarResolver.resolve(text) else { return false }
        let unsafeFirst = "-?:,[]{}#&*!|>'\"%@`~ "
        if unsafeFirst.unicodeScalars.contains(first) || last == " " || last == ":" { return false }
        if text.contains(": ") || text.contains(" #") || text.contains("\t") { return false }
        if text.unicodeScalars.contains(where: needsEscape) { return false }
        if ["yes", "no", "on", "off", "y", "n"].contains(text.lowercased()) { return false }  // YAML 1.1 readers
        return !text.contains { "[]{},".contains($0) }
    }

    /// Characters written as an escape: every control character a terminal or
    /// the config loader would not take raw (`DisplayText.isControl`: C0, DEL,
    /// C1, line separators, bidi overrides) and the byte order mark.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        DisplayText.isControl(scalar) || scalar == "\u{FEFF}"
    }

    /// Single quotes when the text has nothing to escape, else double quotes with escapes.
    static func quoted(_ text: String) -> String {
        if !text.unicodeScalars.contains(where: needsEscape) {
            return "'" + text.replacingAll("'", with: "''") + "'"
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    let digits = scalar.value <= 0xFF ? 2 : 4
                    result += (digits == 2 ? "\\x" : "\\u") + String(repeating: "0", count: digits - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A comment's text on one line, bounded.
    static func comment(_ text: String, maxLength: Int = 200) -> String {
        let scalars = text.unicodeScalars
        var line = String.UnicodeScalarView()
        for scalar in scalars.prefix(maxLength) { line.append(DisplayText.isControl(scalar) ? " " : scalar) }
        guard scalars.count > maxLength else { return String(line) }
        return String(String.UnicodeScalarView(line.prefix(maxLength - 1))) + "…"
    }
}
