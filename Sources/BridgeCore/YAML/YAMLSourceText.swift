/// The text of a YAML document split into lines of Unicode scalars, after the
/// checks that do not need the structure: a UTF-8 byte order mark at the start
/// is accepted and dropped, CRLF line endings are accepted, and characters
/// outside the subset (control characters, tabs in indentation, document
/// markers, directives) are reported, all of them at once.
struct YAMLSourceText {
    /// Each line without its line break (nor the CR of a CRLF).
    var lines: [SourceLine]
    /// Whether the last line ended with a line break.
    var endsWithLineBreak: Bool
    /// What the checks found: at most one control character per line, and at
    /// most `maxErrors` in all (the rest are counted in `omittedErrorCount`).
    var errors: [YAMLSyntaxError]
    /// Lines whose indentation holds a tab, with the tab's column. The parser
    /// refuses them when it meets them as structure; inside `|`/`>` text a tab
    /// after the text's indentation is text.
    var tabIndentColumns: [Int: Int] = [:]
    var omittedErrorCount = 0

    /// Errors kept; a file of a million bad lines must not make a million.
    static let maxErrors = 400

    init(_ text: String) {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        lines = []
        errors = []
        var lineStart = 0
        for index in scalars.indices where scalars[index] == "\n" {
            let end = index > lineStart && scalars[index - 1] == "\r" ? index - 1 : index
            lines.append(SourceLine(scalars, range: lineStart..<end))
            lineStart = index + 1
        }
        endsWithLineBreak = lineStart == scalars.count && !lines.isEmpty
        if lineStart < scalars.count || lines.isEmpty { lines.append(SourceLine(scalars, range: lineStart..<scalars.count)) }
        if endsWithLineBreak == false, lines.count == 1, lines[0].isEmpty { endsWithLineBreak = true }
        for lineIndex in lines.indices { checkLine(lineIndex) }
    }

    private mutating func checkLine(_ lineIndex: Int) {
        let line = lines[lineIndex]
        func report(_ message: String, column: Int) {
            guard errors.count < Self.maxErrors else { omittedErrorCount += 1; return }
            errors.append(YAMLSyntaxError(message, at: SourceLocation(line: lineIndex + 1, column: column + 1)))
        }
        if let column = line.firstIndex(where: { !Self.isAllowed($0) }) {
            let scalar = line[column]
            let others = line[(column + 1)...].count { !Self.isAllowed($0) }
            let more = others == 0 ? "" : " (and \(others) more on this line)"
            if scalar == "\r" {
                report("a carriage return (CR) without a line feed is not supported; use LF or CRLF line endings\(more)", column: column)
            } else {
                report("control character U+\(Self.hex(scalar.value)) is not allowed in the file\(more)", column: column)
            }
        }
        if let tab = Self.tabInIndentation(line) { tabIndentColumns[lineIndex] = tab }
        if Self.starts(line, with: "---") {
            report("multiple documents and document markers ('---') are not supported; the file holds one document", column: 0)
        } else if Self.starts(line, with: "...") {
            report("document end markers ('...') are not supported; the file holds one document", column: 0)
        } else if line.first == "%" {
            report("directives ('%YAML', '%TAG') are not supported", column: 0)
        }
    }

    /// The column of a tab in the white space before a line's first character,
    /// unless that character starts a comment.
    private static func tabInIndentation(_ line: SourceLine) -> Int? {
        var firstTab: Int?
        for (column, scalar) in line.enumerated() {
            if scalar == "\t" {
                if firstTab == nil { firstTab = column }
            } else if scalar != " " {
                return scalar == "#" ? nil : firstTab
            }
        }
        return nil
    }

    private static func starts(_ line: SourceLine, with marker: String) -> Bool {
        let markerScalars = Array(marker.unicodeScalars)
        guard line.count >= 3, Array(line[0..<3]) == markerScalars else { return false }
        return line.count == 3 || line[3] == " " || line[3] == "\t"
    }

    /// YAML's printable set: tab, and everything but C0/C1 controls, DEL and
    /// U+FFFE/U+FFFF. NEL and the Unicode line/paragraph separators are refused
    /// too: YAML 1.1 tools read them as line breaks, YAML 1.2 does not.
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: return true
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0xFFFE, 0xFFFF: return false
        default: return true
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
