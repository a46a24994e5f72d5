/// The service's own reason for refusing a request, from its answer's body
/// (`{"error": "..."}`), made safe to log: control characters become spaces
/// and the text is cut to `maxScalars`.
public enum ServiceErrorText {
    /// The longest reason logged, in Unicode scalars.
    public static let maxScalars = 200

    /// The reason in `body`: its JSON `error` (or `message`) text, else the body
    /// as text; nil when empty.
    public static func reason(fromBody body: [UInt8]) -> String? {
        var text: String
        if let parsed = try? JSONValue.parse(bytes: body),
           let message = parsed["error"]?.stringValue ?? parsed["message"]?.stringValue {
            text = message
        } else {
            text = String(decoding: body.prefix(4 * maxScalars), as: UTF8.self)
        }
        text = sanitized(text)
        return text.isEmpty ? nil : text
    }

    /// One line of at most `maxScalars` printable scalars.
    static func sanitized(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < maxScalars else {
                result.append("…")
                break
            }
            let isControl = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
            result.append(isControl ? " " : scalar)
            count += 1
        }
        var trimmed = Substring(String(result))
        while trimmed.last == " " { trimmed = trimmed.dropLast() }
        while trimmed.first == " " { trimmed = trimmed.dropFirst() }
        return String(trimmed)
    }
}
