/// A payload as a log line or a terminal may show it: at most `limit`
/// characters (Unicode scalars), every control character (C0, C1, DEL, the
/// line separators, the bidi overrides: `DisplayText.isControl`) replaced by a
/// space, an ellipsis when cut.
public enum PayloadExcerpt {
    /// The characters shown of a payload by default.
    public static let defaultLimit = 96

    public static func make(_ payload: [UInt8], limit: Int = defaultLimit) -> String {
        // Printable ASCII within the limit (most device payloads) is shown as it is.
        if payload.count <= limit, payload.allSatisfy(DisplayText.isPrintableASCII) {
            return String(decoding: payload, as: UTF8.self)
        }
        return walked(payload, limit: limit)
    }

    /// The excerpt made scalar by scalar (any payload; `make`'s shortcut gives the same).
    static func walked(_ payload: [UInt8], limit: Int) -> String {
        let text = String(decoding: payload.prefix(limit * 4), as: UTF8.self)
        var excerpt = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else { return excerpt + "…" }
            excerpt.unicodeScalars.append(DisplayText.isControl(scalar) ? " " : scalar)
            count += 1
        }
        return payload.count > limit * 4 ? excerpt + "…" : excerpt
    }
}
