/// Nodes that sit on one line: keys, scalars and flow collections.
extension YAMLBlockParser {
    /// Where a value must end: in a flow collection `,[]{}` end plain scalars too.
    enum Context {
        case block
        case flow
    }

    /// If a mapping key starts at `column`, the key and the column after its `:`.
    func mappingKey(line: Int, column: Int) throws(YAMLSyntaxError) -> (YAMLNode, Int)? {
        let text = lines[line]
        guard column < text.count else { return nil }
        let first = text[column]
        var end = column
        let key: YAMLNode
        switch first {
        case "\"", "'":
            key = try parseQuoted(line: line, column: &end)
        case "[", "{":
            var probe = column
            _ = try nodeBudget.uncounted { () throws(YAMLSyntaxError) in try parseFlowCollection(line: line, column: &probe) }
            probe = skipSpaces(line: line, from: probe)
            if probe < text.count, text[probe] == ":" {
                throw error("a list or mapping cannot be a mapping key", line: line, column: column)
            }
            return nil
        case "?" where column + 1 == text.count || Self.isSpace(text[column + 1]):
            throw error("complex mapping keys ('? ') are not supported", line: line, column: column)
        case ":" where column + 1 == text.count || Self.isSpace(text[column + 1]):
            throw error("a mapping key is missing before ':'", line: line, column: column)
        default:
            guard Self.canStartPlain(text, at: column, context: .block) else { return nil }
            let (plain, plainEnd) = scanPlain(line: line, from: column, context: .block)
            key = YAMLNode(.scalar(YAMLScalar(text: plain, style: .plain)), at: location(line, column))
            end = plainEnd
        }
        let colon = skipSpaces(line: line, from: end)
        guard colon < text.count, text[colon] == ":", colon + 1 == text.count || Self.isSpace(text[colon + 1]) else {
            return nil
        }
        if first == "-" { try checkDashWithoutSpace(key.scalar?.text ?? "", line: line, column: column) }
        return (key, colon + 1)
    }

    /// A scalar, flow collection or block scalar starting at `column`; the rest
    /// of the line must be empty or a comment.
    mutating func parseValueToLineEnd(line: Int, column: Int, parentIndent: Int) throws(YAMLSyntaxError) -> (YAMLNode, Int) {
        let text = lines[line]
        if text[column] == "|" || text[column] == ">" {
            return try parseBlockScalar(line: line, column: column, parentIndent: parentIndent)
        }
        var end = column
        let node = try parseInlineNode(line: line, column: &end, context: .block)
        end = skipSpaces(line: line, from: end)
        if !isLineEnd(line: line, column: end) {
            if text[end] == ":" {
                throw error("a mapping value is not allowed here; a nested mapping must start on its own line", line: line, column: end)
            }
            if text[end] == "#" {
                throw error("a comment needs a space before '#'", line: line, column: end)
            }
            throw error("unexpected text after the value", line: line, column: end)
        }
        return (node, line + 1)
    }

    /// A scalar or flow collection starting at `column`; moves `column` past it.
    func parseInlineNode(line: Int, column: inout Int, context: Context, flowDepth: Int = 0) throws(YAMLSyntaxError) -> YAMLNode {
        let text = lines[line]
        let first = text[column]
        switch first {
        case "\"", "'": return try parseQuoted(line: line, column: &column)
        case "[", "{": return try parseFlowCollection(line: line, column: &column, depth: flowDepth + 1)
        default: break
        }
        if let feature = Self.unsupportedFeature(first) {
            throw error(feature, line: line, column: column)
        }
        guard Self.canStartPlain(text, at: column, context: context) else {
            throw error(Self.badStartMessage(first, context: context), line: line, column: column)
        }
        let start = column
        let (plain, end) = scanPlain(line: line, from: column, context: context)
        column = end
        return YAMLNode(.scalar(YAMLScalar(text: plain, style: .plain)), at: location(line, start))
    }

    private static func unsupportedFeature(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "&": return "anchors ('&') are not supported; repeat the value instead"
        case "*": return "aliases ('*') are not supported; repeat the value instead"
        case "!": return "tags ('!') are not supported; quote the value if it is text"
        default: return nil
        }
    }

    private static func badStartMessage(_ scalar: Unicode.Scalar, context: Context) -> String {
        switch scalar {
        case "|", ">": return "block scalars ('|', '>') cannot be used inside a flow collection"
        case "-": return "a list item '- ' is not allowed here"
        case "?": return "complex mapping keys ('? ') are not supported"
        case "%", "@", "`": return "'\(scalar)' cannot start a plain value; quote the value"
        default: return "unexpected '\(scalar)'; quote the value if it is text"
        }
    }

    /// Whether a plain scalar may start here (YAML's ns-plain-first).
    static func canStartPlain(_ text: SourceLine, at column: Int, context: Context) -> Bool {
        let first = text[column]
        let next: Unicode.Scalar? = column + 1 < text.count ? text[column + 1] : nil
        switch first {
        case "-", "?", ":":
            guard let next, !isSpace(next) else { return false }
            return context == .block || !isFlowIndicator(next)
        case ",", "[", "]", "{", "}", "#", "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`":
            return false
        default:
            return !isSpace(first)
        }
    }

    static func isFlowIndicator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "," || scalar == "[" || scalar == "]" || scalar == "{" || scalar == "}"
    }

    /// The text of a plain scalar from `start` and the column after it (white
    /// space at its end excluded). Stops before `: `, ` #` and, in flow
    /// collections, before `,[]{}`.
    func scanPlain(line: Int, from start: Int, context: Context) -> (String, Int) {
        let text = lines[line]
        var index = start
        var end = start
        while index < text.count {
            let scalar = text[index]
            if scalar == ":" {
                let next: Unicode.Scalar? = index + 1 < text.count ? text[index + 1] : nil
                if next == nil || Self.isSpace(next ?? " ") { break }
                if context == .flow, let next, Self.isFlowIndicator(next) { break }
            }
            if scalar == "#", index > start, Self.isSpace(text[index - 1]) { break }
            if context == .flow, Self.isFlowIndicator(scalar) { break }
            index += 1
            if !Self.isSpace(scalar) { end = index }
        }
        return (String(String.UnicodeScalarView(text[start..<end])), end)
    }

    // MARK: Quoted scalars

    func parseQuoted(line: Int, column: inout Int) throws(YAMLSyntaxError) -> YAMLNode {
        let start = column
        let style: YAMLScalarStyle = lines[line][column] == "\"" ? .doubleQuoted : .singleQuoted
        let value = try scanQuoted(line: line, column: &column, style: style)
        return YAMLNode(.scalar(YAMLScalar(text: value, style: style)), at: location(line, start))
    }

    /// A quoted value from its opening quote at `column` to its closing one on the same
    /// line; moves past it. The two styles differ in their escape only: `''` is one
    /// quote in a single-quoted value, a backslash starts an escape in a double-quoted one.
    private func scanQuoted(line: Int, column: inout Int, style: YAMLScalarStyle) throws(YAMLSyntaxError) -> String {
        let text = lines[line]
        let start = column
        let isDouble = style == .doubleQuoted
        let quote: Unicode.Scalar = isDouble ? "\"" : "'"
        var result = String.UnicodeScalarView()
        var index = column + 1
        while true {
            guard index < text.count else {
                throw error("a \(isDouble ? "double" : "single")-quoted value must end on the same line "
                                + "(quoted values spanning lines are not supported)", line: line, column: start)
            }
            let scalar = text[index]
            if isDouble, scalar == "\\" {
                result.append(try scanEscape(line: line, column: &index))
                continue
            }
            if scalar == quote {
                guard !isDouble, index + 1 < text.count, text[index + 1] == "'" else {
                    column = index + 1
                    return String(result)
                }
                index += 1
            }
            result.append(scalar)
            index += 1
        }
    }

    /// One escape sequence at `column` (the backslash); moves past it.
    private func scanEscape(line: Int, column: inout Int) throws(YAMLSyntaxError) -> Unicode.Scalar {
        let text = lines[line]
        let start = column
        guard column + 1 < text.count else {
            throw error("a double-quoted value must end on the same line (a '\\' at the end of a line is not supported)",
                        line: line, column: start)
        }
        let code = text[column + 1]
        column += 2
        if let simple = Self.simpleEscapes[code] { return simple }
        let digitCount: Int
        switch code {
        case "x": digitCount = 2
        case "u": digitCount = 4
        case "U": digitCount = 8
        default: throw error("unknown escape '\\\(code)' in a double-quoted value", line: line, column: start)
        }
        guard column + digitCount <= text.count,
              let value = UInt32(String(String.UnicodeScalarView(text[column..<(column + digitCount)])), radix: 16),
              text[column..<(column + digitCount)].allSatisfy({ $0.properties.isASCIIHexDigit })
        else {
            throw error("escape '\\\(code)' needs \(digitCount) hexadecimal digits", line: line, column: start)
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("escape '\\\(code)' does not name a Unicode character (surrogates are not supported)", line: line, column: start)
        }
        column += digitCount
        return scalar
    }

    private static let simpleEscapes: [Unicode.Scalar: Unicode.Scalar] = [
        "0": "\u{0}", "a": "\u{7}", "b": "\u{8}", "t": "\t", "\t": "\t", "n": "\n", "v": "\u{B}",
        "f": "\u{C}", "r": "\r", "e": "\u{1B}", " ": " ", "\"": "\"", "/": "/", "\\": "\\",
        "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
    ]

    // MARK: Flow collections

    /// `[a, b]` or `{a: 1}`, closed on the same line.
    func parseFlowCollection(line: Int, column: inout Int, depth: Int = 1) throws(YAMLSyntaxError) -> YAMLNode {
        let start = column
        if blockDepth + depth > Self.maxNestingDepth {
            throw error("collections are nested more than \(Self.maxNestingDepth) levels deep", line: line, column: column)
        }
        let isSequence = lines[line][column] == "["
        let closer: Unicode.Scalar = isSequence ? "]" : "}"
        column += 1
        var items: [YAMLNode] = []
        var entries: [YAMLMapEntry] = []
        var firstSeen: [String: SourceLocation] = [:]
        while true {
            column = try skipFlowSpaces(line: line, column: column, opener: start, closer: closer)
            let text = lines[line]
            if text[column] == closer { column += 1; break }
            if text[column] == "," { throw error("empty entry in a flow collection (two commas or a leading comma)", line: line, column: column) }
            try countNodes(isSequence ? 1 : 2, line: line, column: column)
            if isSequence {
                items.append(try parseFlowSequenceItem(line: line, column: &column, depth: depth))
            } else {
                let entry = try parseFlowMappingEntry(line: line, column: &column, opener: start, depth: depth)
                if let first = firstSeen[entry.keyText] {
                    throw error("duplicate key '\(entry.keyText)' (first defined at \(first))", line: entry.key.location.line - 1,
                                column: entry.key.location.column - 1)
                }
                firstSeen[entry.keyText] = entry.key.location
                entries.append(entry)
            }
            column = try skipFlowSpaces(line: line, column: column, opener: start, closer: closer)
            if text[column] == "," { column += 1; continue }
            if text[column] == closer { column += 1; break }
            throw error("expected ',' or '\(closer)' in a flow collection", line: line, column: column)
        }
        let content: YAMLContent = isSequence ? .sequence(items) : .mapping(entries)
        return YAMLNode(content, at: location(line, start))
    }

    private func parseFlowSequenceItem(line: Int, column: inout Int, depth: Int) throws(YAMLSyntaxError) -> YAMLNode {
        let item = try parseInlineNode(line: line, column: &column, context: .flow, flowDepth: depth)
        let after = skipSpaces(line: line, from: column)
        if after < lines[line].count, lines[line][after] == ":" {
            throw error("'key: value' pairs inside a flow list are not supported; write {key: value}", line: line, column: after)
        }
        return item
    }

    private func parseFlowMappingEntry(line: Int, column: inout Int, opener: Int, depth: Int) throws(YAMLSyntaxError) -> YAMLMapEntry {
        let text = lines[line]
        let keyStart = column
        if text[column] == "[" || text[column] == "{" {
            throw error("a list or mapping cannot be a mapping key", line: line, column: column)
        }
        if text[column] == "?", column + 1 < text.count, Self.isSpace(text[column + 1]) {
            throw error("complex mapping keys ('? ') are not supported", line: line, column: column)
        }
        let key = try parseInlineNode(line: line, column: &column, context: .flow)
        let wasQuoted = text[keyStart] == "\"" || text[keyStart] == "'"
        column = try skipFlowSpaces(line: line, column: column, opener: opener, closer: "}")
        guard text[column] == ":" else {
            return YAMLMapEntry(key: key, value: Self.nullNode(at: key.location))
        }
        let next: Unicode.Scalar? = column + 1 < text.count ? text[column + 1] : nil
        guard wasQuoted || next.map({ Self.isSpace($0) || Self.isFlowIndicator($0) }) ?? true else {
            throw error("expected ':' followed by a space in a flow mapping", line: line, column: column)
        }
        let colon = column
        column = try skipFlowSpaces(line: line, column: column + 1, opener: opener, closer: "}")
        if text[column] == "," || text[column] == "}" {
            return YAMLMapEntry(key: key, value: Self.nullNode(at: location(line, colon + 1)))
        }
        return YAMLMapEntry(key: key, value: try parseInlineNode(line: line, column: &column, context: .flow, flowDepth: depth))
    }

    /// Skips white space inside a flow collection; it must not reach the end
    /// of the line or a comment.
    private func skipFlowSpaces(line: Int, column: Int, opener: Int, closer: Unicode.Scalar) throws(YAMLSyntaxError) -> Int {
        let index = skipSpaces(line: line, from: column)
        if isLineEnd(line: line, column: index) {
            throw error("a flow collection must be closed with '\(closer)' on the line where it opens", line: line, column: opener)
        }
        return index
    }
}
