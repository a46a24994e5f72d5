/// Why no API token could be loaded. The text never contains the token.
public enum CredentialError: Error, Equatable, Sendable, CustomStringConvertible {
    /// None of the sources held a token; lists what was tried, in order.
    case noTokenFound(tried: [TokenSource])
    /// The source exists but could not be read (e.g. permission denied).
    case unreadable(TokenSource, errno: Int32)
    /// The bridge refused what is at the file's path (a FIFO, a directory): `reason` says what and the fix.
    case refusedFile(TokenSource, reason: String)
    /// The source is larger than any token could be.
    case tooLarge(TokenSource, limitBytes: Int)
    /// The source is empty or holds only whitespace.
    case empty(TokenSource)
    /// The source is not valid UTF-8.
    case notText(TokenSource)
    /// The token holds a control character (CR, LF, ESC, ...): sent in a header it
    /// would be cut or rejected, so every request would fail with 401.
    case controlCharacter(TokenSource)
    /// The token holds a character no token has (a byte order mark, a zero-width
    /// or other invisible character, a space inside it): the service answers 401.
    case badCharacter(TokenSource, TokenCharacterProblem)

    public var description: String {
        switch self {
        case .noTokenFound(let tried):
            if tried.isEmpty { return "no API token configured (set aivi.token_file or aivi.token_env)" }
            return "no API token found; tried " + tried.map(\.description).joined(separator: ", ")
        case .unreadable(let source, let errno):
            return "cannot read the API token from \(source): \(SystemErrorText.describe(errno))"
        case .refusedFile(let source, let reason):
            return "cannot read the API token from \(source): \(reason)"
        case .tooLarge(let source, let limitBytes):
            return "the API token in \(source) is longer than \(limitBytes) bytes"
        case .empty(let source):
            return "the API token in \(source) is empty"
        case .notText(let source):
            return "the API token in \(source) is not UTF-8 text"
        case .controlCharacter(let source):
            return "the API token in \(source) contains a control character (CR, LF, tab or another): "
                + "write the token alone, on one line"
        case .badCharacter(let source, let problem):
            return "the API token in \(source) contains \(problem) (not shown), which no token has and the service "
                + "would answer 401: write the token alone, on one line, as copied from the Aivi app"
        }
    }
}
