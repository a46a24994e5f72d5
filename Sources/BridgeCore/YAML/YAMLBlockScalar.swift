/// Literal `|` and folded `>` block scalars, with the chomping indicators
/// `-` (strip) and `+` (keep) and an optional indentation digit.
extension YAMLBlockParser {
    enum Chomping {
        case strip
        case clip
        case keep
    }

    struct BlockScalarHeader {
        var isFolded: Bool
        var chomping: Chomping = .clip
        var indentIncrement: Int?
    }

    /// Builds a block scalar's text as UTF-8 bytes while its lines are read,
    /// in one pass: no copy of each line is kept (a 300,000-line scalar would
    /// hold 300,000 arrays), and nothing is appended piece by piece to a
    /// `String.UnicodeScalarView` (quadratic on long scalars).
    struct BlockTextBuilder {
        let isFolded: Bool
        private(set) var bytes: [UInt8] = []
        private(set) var lastContentLine: Int?
        private var previousStartsWithText = false

        init(isFolded: Bool) { self.isFolded = isFolded }

        /// Adds one content line (after its indentation), preceded by `emptyLinesBefore` empty lines.
        mutating func append(_ text: SourceLine.SubSequence, emptyLinesBefore: Int, lineIndex: Int) {
            let startsWithText = text.first.map { !YAMLBlockParser.isSpace($0) } ?? true
            if lastContentLine == nil {
                appendBreaks(emptyLinesBefore)
            } else if isFolded, previousStartsWithText, startsWithText {
                if emptyLinesBefore == 0 { bytes.append(UInt8(ascii: " ")) } else { appendBreaks(emptyLinesBefore) }
            } else {
                appendBreaks(1 + emptyLinesBefore)
            }
            for scalar in text { UTF8.encode(scalar) { bytes.append($0) } }
            previousStartsWithText = startsWithText
            lastContentLine = lineIndex
        }

        mutating func appendBreaks(_ count: Int) {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "\n"), count: count))
        }
    }

    mutating func parseBlockScalar(line: Int, column: Int, parentIndent: Int) throws(YAMLSyntaxError) -> (YAMLNode, Int) {
        let header = try parseBlockScalarHeader(line: line, column: column)
        let minimumIndent = max(parentIndent + 1, 1)
        let contentIndent = try blockContentIndent(after: line, header: header, minimumIndent: minimumIndent)
        var builder = BlockTextBuilder(isFolded: header.isFolded)
        var emptyLines = 0
        var index = line + 1
        while index < lines.count {
            let text = lines[index]
            let spaces = indentation(of: index)
            if let tab = text.firstIndex(of: "\t"), tab < contentIndent, text.allSatisfy(Self.isSpace) {
                throw error("a tab in the indentation of block text ('|' or '>'); indent with spaces "
                            + "(a tab after the text's indentation is part of the text)", line: index, column: tab)
            }
            if spaces == text.count, spaces <= contentIndent {
                emptyLines += 1
            } else if spaces >= contentIndent {
                builder.append(text[contentIndent...], emptyLinesBefore: emptyLines, lineIndex: index)
                emptyLines = 0
            } else {
                break
            }
            index += 1
        }
        let value = finishedText(&builder, trailingEmptyLines: emptyLines, header: header)
        let style: YAMLScalarStyle = header.isFolded ? .folded : .literal
        return (YAMLNode(.scalar(YAMLScalar(text: value, style: style)), at: location(line, column)), index)
    }

    private func parseBlockScalarHeader(line: Int, column: Int) throws(YAMLSyntaxError) -> BlockScalarHeader {
        let text = lines[line]
        var header = BlockScalarHeader(isFolded: text[column] == ">")
        var index = column + 1
        var sawChomping = false
        while index < text.count, !Self.isSpace(text[index]) {
            let scalar = text[index]
            if (scalar == "-" || scalar == "+"), !sawChomping {
                header.chomping = scalar == "-" ? .strip : .keep
                sawChomping = true
            } else if scalar >= "1", scalar <= "9", header.indentIncrement == nil {
                header.indentIncrement = Int(scalar.value - 48)
            } else {
                throw error("invalid block scalar header: after '|' or '>' only '-', '+' and one digit 1-9 may follow",
                            line: line, column: index)
            }
            index += 1
        }
        index = skipSpaces(line: line, from: index)
        guard isLineEnd(line: line, column: index) else {
            throw error("the text of a block scalar starts on the line after '|' or '>'", line: line, column: index)
        }
        return header
    }

    /// The indentation of the content: from the indentation digit, else from
    /// the first non-empty line (leading empty lines may not be deeper).
    private func blockContentIndent(after line: Int, header: BlockScalarHeader, minimumIndent: Int) throws(YAMLSyntaxError) -> Int {
        if let increment = header.indentIncrement { return minimumIndent + increment - 1 }
        var deepestEmpty = 0
        var index = line + 1
        while index < lines.count {
            let spaces = indentation(of: index)
            if spaces < lines[index].count {
                if spaces >= minimumIndent, deepestEmpty > spaces {
                    throw error("a leading empty line of a block scalar has more spaces than its first text line",
                                line: index, column: 0)
                }
                return max(minimumIndent, spaces, deepestEmpty)
            }
            deepestEmpty = max(deepestEmpty, spaces)
            index += 1
        }
        return max(minimumIndent, deepestEmpty)
    }

    /// The text with its final line break as the chomping indicator says.
    private func finishedText(_ builder: inout BlockTextBuilder, trailingEmptyLines: Int, header: BlockScalarHeader) -> String {
        let lastHasBreak = builder.lastContentLine.map { $0 < lines.count - 1 || endsWithLineBreak } ?? false
        switch header.chomping {
        case .strip: break
        case .clip: if lastHasBreak { builder.appendBreaks(1) }
        case .keep:
            if lastHasBreak { builder.appendBreaks(1) }
            builder.appendBreaks(trailingEmptyLines)
        }
        return String(decoding: builder.bytes, as: UTF8.self)
    }
}
