/// What makes two log events "of the same kind" for rate limiting: the level and
/// the kind, never the text: a core message's template (`press {} {}: unknown
/// action`), a shell message's call site (`BridgeDaemon/AiviLink.swift:84`). Only
/// the first `maximumKindCharacters` of the kind count, which bounds the memory per key.
/// A call site is kept as its `#fileID` literal's address and its line (two numbers:
/// no `String` is made, and hashing the key hashes no text).
public struct LogEventKey: Hashable, Sendable {
    /// Characters of the kind kept in the key.
    public static let maximumKindCharacters = 240

    public let level: LogLevel
    /// A core message's template (empty for a call site).
    public let kind: String
    /// A shell message's call site: its file's literal (by address) and its line; 0 for a template.
    private let fileAddress: UInt
    private let line: UInt

    public init(level: LogLevel, kind: String) {
        self.level = level
        self.kind = Self.cut(kind, toCharacters: Self.maximumKindCharacters)
        fileAddress = 0
        line = 0
    }

    /// The key of a shell message: its call site.
    public init(level: LogLevel, fileID: StaticString, line: UInt) {
        self.level = level
        kind = ""
        fileAddress = fileID.hasPointerRepresentation ? UInt(bitPattern: fileID.utf8Start) : UInt(fileID.unicodeScalar.value)
        self.line = line
    }

    /// `text`'s first `maxCharacters` characters; a text of no more bytes than that
    /// is kept as it is, without counting its characters (the usual case).
    static func cut(_ text: String, toCharacters maxCharacters: Int) -> String {
        text.utf8.count <= maxCharacters ? text : String(text.prefix(maxCharacters))
    }
}
