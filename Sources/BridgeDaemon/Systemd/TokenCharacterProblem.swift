/// A character inside an API token (after the surrounding whitespace is
/// trimmed) that no token has: the service would answer 401 to every request,
/// while the token looks right on the screen. Said without showing the token.
public enum TokenCharacterProblem: Equatable, Sendable, CustomStringConvertible {
    /// U+FEFF, which editors on other systems put at the start of a file.
    case byteOrderMark
    /// An invisible character (Unicode format characters: U+200B zero-width
    /// space, U+200D joiner, U+00AD soft hyphen, U+2060 word joiner, …), with its code point.
    case invisible(UInt32)
    /// A space or other whitespace between two parts of the token.
    case innerSpace

    public var description: String {
        switch self {
        case .byteOrderMark: return "a byte order mark (U+FEFF, added by some editors)"
        case .invisible(let value): return "an invisible character (\(Self.codePoint(value)))"
        case .innerSpace: return "a space inside it"
        }
    }

    /// The first problem in `token` (already trimmed of surrounding whitespace), nil when none.
    static func first(in token: String) -> TokenCharacterProblem? {
        for scalar in token.unicodeScalars {
            if scalar.value == 0xFEFF { return .byteOrderMark }
            if scalar.properties.generalCategory == .format { return .invisible(scalar.value) }
            if scalar.properties.isWhitespace { return .innerSpace }
        }
        return nil
    }

    /// "U+200B".
    static func codePoint(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
