/// A payload as a log line or a terminal may show it: at most `limit`
/// characters, control characters replaced, an ellipsis when cut.
public enum PayloadExcerpt {
    /// The characters shown of a payload by default.
    public static let defaultLimit = 96

    public static func make(_ payload: [UInt8], limit: Int = defaultLimit) -> String {
        let text = String(decoding: payload.prefix(limit * 4), as: UTF8.self)
        var excerpt = ""
        var count = 0
        for character in text {
            guard count < limit else { return excerpt + "…" }
            excerpt.append(character.isNewline || character.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true ? " " : character)
            count += 1
        }
        return payload.count > limit * 4 ? excerpt + "…" : excerpt
    }
}
