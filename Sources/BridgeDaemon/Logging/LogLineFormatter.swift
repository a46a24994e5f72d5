/// Turns one log event into exactly one line (no trailing newline).
public struct LogLineFormatter: Sendable {
    /// Journal or plain.
    public let format: LogLineFormat

    public init(format: LogLineFormat) {
        self.format = format
    }

    /// `<4>message` for the journal, `2026-…Z warning message` otherwise. Line breaks
    /// and other control characters in `message` are escaped so an event stays one line.
    public func line(level: LogLevel, message: String, epochMs: Int64) -> String {
        let text = Self.singleLine(message)
        switch format {
        case .journal:
            return "<\(level.syslogPriority)>\(text)"
        case .plain:
            return "\(LogTimestamp.format(epochMs: epochMs)) \(level.name) \(text)"
        }
    }

    /// Replaces `\n`, `\r`, `\t` by their escapes and other control characters by `?`.
    static func singleLine(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return message
        }
        var result = ""
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += "?"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
