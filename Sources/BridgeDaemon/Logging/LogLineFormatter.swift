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
    /// The line is built in one byte buffer (no intermediate strings).
    public func line(level: LogLevel, message: String, epochMs: Int64) -> String {
        var bytes: [UInt8] = []
        var clock = LogTimestamp.SecondCache()
        append(level: level, message: message, epochMs: epochMs, to: &bytes, clock: &clock)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same line's bytes appended to `bytes` (the sink's buffer of held lines);
    /// `clock` keeps the timestamp's date and time up to the second between lines.
    func append(level: LogLevel, message: String, epochMs: Int64, to bytes: inout [UInt8],
                clock: inout LogTimestamp.SecondCache) {
        let text = Self.singleLine(message)
        switch format {
        case .journal:
            bytes.reserveCapacity(bytes.count + text.utf8.count + 4)
            bytes.append(UInt8(ascii: "<"))
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: level.syslogPriority))
            bytes.append(UInt8(ascii: ">"))
        case .plain:
            let name = level.name.utf8
            bytes.reserveCapacity(bytes.count + LogTimestamp.byteCount + name.count + text.utf8.count + 2)
            clock.append(epochMs: epochMs, to: &bytes)
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: name)
            bytes.append(UInt8(ascii: " "))
        }
        bytes.append(contentsOf: text.utf8)
    }

    /// Replaces `\n`, `\r`, `\t` by their escapes and other control characters (C0,
    /// DEL, C1, line separators, bidirectional overrides) by `?`; cuts the result to
    /// `maxScalars` characters with a marker naming how many characters of `message`
    /// were cut (`…[+1234]`).
    static func singleLine(_ message: String, maxScalars: Int = maxMessageScalars) -> String {
        if isAlreadySingleLine(message, maxScalars: maxScalars) { return message }
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

    /// Whether `message` is short enough and has no control character: its bytes
    /// are looked at first (a printable ASCII message, the usual one, needs nothing
    /// more), its scalars only when it has others.
    private static func isAlreadySingleLine(_ message: String, maxScalars: Int) -> Bool {
        guard message.utf8.count <= maxScalars else { return false }
        let isPrintableASCII = message.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        }
        if isPrintableASCII == true { return true }
        return !message.unicodeScalars.contains(where: DisplayText.isControl)
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
