/// What makes two log events "identical" for rate limiting: level and message text
/// (only the first `maximumMessageCharacters` count, which bounds the memory per key).
public struct LogEventKey: Hashable, Sendable {
    /// Characters of the message kept in the key.
    public static let maximumMessageCharacters = 240

    public let level: LogLevel
    public let message: String

    public init(level: LogLevel, message: String) {
        self.level = level
        self.message = String(message.prefix(Self.maximumMessageCharacters))
    }
}
