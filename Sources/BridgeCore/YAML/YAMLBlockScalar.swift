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

    /// One line of a block scalar's content, after its indentation.
    struct ContentLine {
        var text: [Unicode.Scalar]
        /// Empty lines between the previous content line and this one.
        var emptyLinesBefore: Int
        var lineIndex: Int
    }

    mutating func parseBlockScalar(line: Int, column: Int, parentIndent: Int) throws(YAMLSyntaxError) -> (YAMLNode, Int) {
        let header = try parseBlockScalarHeader(line: line, column: column)
        let minimumIndent = max(parentIndent + 1, 1)
        let contentIndent = try blockContentIndent(after: line, header: header, minimumIndent: minimumIndent)
        var contentLines: [ContentLine] = []
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
                contentLines.append(ContentLine(text: Array(text[contentIndent...]), emptyLinesBefore: emptyLines, lineIndex: index))
                emptyLines = 0
            } else {
                break
            }
            index += 1
        }
        let value = blockScalarText(contentLines, trailingEmptyLines: emptyLines, header: header)
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

    /// The scalar's text, built as UTF-8 bytes in one pass (appending to a
    /// `String.UnicodeScalarView` piece by piece is quadratic on long scalars).
    private func blockScalarText(_ contentLines: [ContentLine], trailingEmptyLines: Int, header: BlockScalarHeader) -> String {
        var bytes: [UInt8] = []
        func appendBreaks(_ count: Int) { bytes.append(contentsOf: repeatElement(UInt8(ascii: "\n"), count: count)) }
        for (position, content) in contentLines.enumerated() {
            if position == 0 {
                appendBreaks(content.emptyLinesBefore)
            } else if header.isFolded, startsWithText(contentLines[position - 1].text), startsWithText(content.text) {
                if content.emptyLinesBefore == 0 { bytes.append(UInt8(ascii: " ")) } else { appendBreaks(content.emptyLinesBefore) }
            } else {
                appendBreaks(1 + content.emptyLinesBefore)
            }
            for scalar in content.text { UTF8.encode(scalar) { bytes.append($0) } }
        }
        let lastHasBreak = contentLines.last.map { $0.lineIndex < lines.count - 1 || endsWithLineBreak } ?? false
        switch header.chomping {
        case .strip: break
        case .clip: if lastHasBreak { appendBreaks(1) }
        case .keep:
            if lastHasBreak { appendBreaks(1) }
            appendBreaks(trailingEmptyLines)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func startsWithText(_ text: [Unicode.Scalar]) -> Bool {
        guard let first = text.first else { return true }
        return !Self.isSpace(first)
    }
}
