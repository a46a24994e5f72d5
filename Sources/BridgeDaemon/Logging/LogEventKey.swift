/// What makes two log events "of the same kind" for rate limiting: the level and
/// the kind, never the text: a core message's template (`press {} {}: unknown
/// action`), a shell message's call site (`BridgeDaemon/AiviLink.swift:84`). Only
/// the first `maximumKindCharacters` of the kind count, which bounds the memory per key.
public struct LogEventKey: Hashable, Sendable {
    /// Characters of the kind kept in the key.
    public static let maximumKindCharacters = 240

    public let level: LogLevel
    public let kind: String

    public init(level: LogLevel, kind: String) {
        self.level = level
        self.kind = Self.cut(kind, toCharacters: Self.maximumKindCharacters)
    }

    /// The key of a shell message: its call site.
    public init(level: LogLevel, fileID: StaticString, line: UInt) {
        self.init(level: level, kind: "\(fileID):\(line)")
    }

    /// `text`'s first `maxCharacters` characters; a text of no more bytes than that
    /// is kept as it is, without counting its characters (the usual case).
    static func cut(_ text: String, toCharacters maxCharacters: Int) -> String {
        text.utf8.count <= maxCharacters ? text : String(text.prefix(maxCharacters))
    }
}
