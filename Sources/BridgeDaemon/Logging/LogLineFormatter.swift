import BridgeCore

/// Turns one log event into exactly one bounded line (no trailing newline).
public struct LogLineFormatter: Sendable {
    /// The longest message part of a line, in characters (Unicode scalars), marker
    /// included: a longer message is cut and ends with `…[+N]`, N the characters cut.
    public static let maxMessageScalars = 4_096
    /// Room kept for the marker: `…[+` , up to 19 digits, `]`.
    static let markerReserveScalars = 24

    /// Journal or plain.
    public let format: LogLineFormat

    public init(format: LogLineFormat) {
        self.format = format
    }

    /// `<4>message` for the journal, `2026-…Z warning message` otherwise. Line breaks
    /// and other control characters in `message` are escaped so an event stays one
    /// line, and the message is cut to `maxMessageScalars`.
    public func line(level: LogLevel, message: String, epochMs: Int64) -> String {
        let text = Self.singleLine(message)
        switch format {
        case .journal:
            return "<\(level.syslogPriority)>\(text)"
        case .plain:
            return "\(LogTimestamp.format(epochMs: epochMs)) \(level.name) \(text)"
        }
    }

    /// Replaces `\n`, `\r`, `\t` by their escapes and other control characters (C0,
    /// DEL, C1, line separators, bidirectional overrides) by `?`; cuts the result to
    /// `maxScalars` characters with a marker naming how many characters of `message`
    /// were cut (`…[+1234]`).
    static func singleLine(_ message: String, maxScalars: Int = maxMessageScalars) -> String {
        if message.utf8.count <= maxScalars, !message.unicodeScalars.contains(where: DisplayText.isControl) {
            return message
        }
        let scalars = message.unicodeScalars
        let keepScalars = max(0, maxScalars - markerReserveScalars)
        var line = String.UnicodeScalarView()
        var lineCount = 0
        var cut: (index: String.UnicodeScalarView.Index, lineCount: Int)?
        for index in scalars.indices {
            let piece = escaped(scalars[index]).unicodeScalars
            let pieceCount = piece.count
            if cut == nil, lineCount + pieceCount > keepScalars { cut = (index, lineCount) }
            if let cut, lineCount + pieceCount > maxScalars {
                let rest = scalars.distance(from: cut.index, to: scalars.endIndex)
                return String(String.UnicodeScalarView(line.prefix(cut.lineCount))) + "…[+\(rest)]"
            }
            line.append(contentsOf: piece)
            lineCount += pieceCount
        }
        return String(line)
    }

    /// How one character of a message is written.
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case _ where DisplayText.isControl(scalar): return "?"
        default: return String(scalar)
        }
    }
}
