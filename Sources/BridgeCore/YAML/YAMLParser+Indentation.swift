/// Precise messages for the ways hand-written indentation goes wrong: tabs,
/// too little indentation, a key left unindented under its section, a missing
/// space after '-' or ':'.
extension YAMLBlockParser {
    /// A structural line whose indentation holds a tab (YAML refuses it).
    func checkNoTabIndentation(_ line: Int) throws(YAMLSyntaxError) {
        guard let column = tabIndentColumns[line] else { return }
        throw error("tabs are not allowed for indentation; indent with spaces", line: line, column: column)
    }

    /// `-\t- x`, `-\ta: 1`: a tab after '-' would indent a nested list or
    /// mapping, which YAML refuses (a tab before a plain value is fine).
    func checkNoTabBeforeNestedCollection(line: Int, from start: Int, to column: Int) throws(YAMLSyntaxError) {
        guard start < column, let tab = lines[line][start..<column].firstIndex(of: "\t") else { return }
        let nestsCollection = isSequenceIndicator(line: line, column: column) || (try? mappingKey(line: line, column: column)) != nil
        guard nestsCollection else { return }
        throw error("a tab after '-' cannot indent a nested list or mapping; use spaces", line: line, column: tab)
    }

    /// The error for a line indented more than the keys of the mapping above.
    func misindentedAfterMapping(_ entries: [YAMLMapEntry], line: Int, following: Int, followingIndent: Int, indent: Int)
        -> YAMLSyntaxError {
        if let last = entries.last, last.value.isCollection, last.value.location.column - 1 > followingIndent {
            return tooLittleIndentation(line: following, column: followingIndent, expected: last.value.location.column - 1, parent: indent)
        }
        if entries.count >= 2, let last = entries.last, entries[entries.count - 2].value.isNull {
            let section = entries[entries.count - 2].keyText
            return YAMLSyntaxError("'\(last.keyText)' is not indented, so it is not inside '\(section):' above it (which is "
                                   + "left empty); indent '\(last.keyText)' and the lines with it under '\(section):'",
                                   at: last.key.location)
        }
        if let lessThanItem = indentedLessThanListItem(entries.last, following: following, followingIndent: followingIndent) {
            return lessThanItem
        }
        if let first = entries.first, let last = entries.last, (try? mappingKey(line: following, column: followingIndent)) != nil {
            return keyIndentedMore(first: first, last: last, following: following, followingIndent: followingIndent, indent: indent)
        }
        return error("unexpected indentation: this line is indented more than the keys of its mapping "
                     + "(a plain value cannot continue on the next line; quote it or use '|' or '>')",
                     line: following, column: followingIndent)
    }

    /// A `key:` line indented more than the keys above it (issue 41). Two spaces more
    /// than a mapping of one key: the `- ` of a list item is missing on that key's line
    /// (`slug: home` then `actions:` where `- slug: home` would have put it; not at the top
    /// level, which is never a list item). Otherwise:
    /// the indentation the line needs.
    func keyIndentedMore(first: YAMLMapEntry, last: YAMLMapEntry, following: Int, followingIndent: Int, indent: Int) -> YAMLSyntaxError {
        let followingKey = (try? mappingKey(line: following, column: followingIndent)).flatMap { $0.0.scalar?.text } ?? ""
        if indent > 0, followingIndent == indent + 2, first.key.location == last.key.location {
            let firstLine = first.key.location.line - 1
            let written = String(String.UnicodeScalarView(lines[firstLine][indent...]))
            return error("'\(followingKey)' (line \(following + 1)) is indented as if '\(first.keyText)' here began a list item: "
                         + "begin the list item with '- ': write '- \(written)'; or, if it is no list item, indent '\(followingKey)' "
                         + "by \(indent) spaces, like '\(first.keyText)'", line: firstLine, column: indent)
        }
        return error("unexpected indentation: this line is indented by \(followingIndent) spaces, more than '\(last.keyText)' above it (line "
                     + "\(last.key.location.line), \(indent) spaces): indent '\(followingKey)' by \(indent) spaces, like '\(last.keyText)', "
                     + "to put it beside it", line: following, column: followingIndent)
    }

    /// `label: Porch: front`: a plain value holding ': ' reads as a nested mapping on the
    /// key's line, which YAML refuses; the value needs quotes (issue 41).
    func valueHoldingColonSpace(line: Int, keyColumn: Int, valueColumn: Int) -> YAMLSyntaxError {
        let text = lines[line]
        var end = text.count
        for index in valueColumn..<text.count where text[index] == "#" && Self.isSpace(text[index - 1]) { end = index; break }
        while end > valueColumn, Self.isSpace(text[end - 1]) { end -= 1 }
        let value = String(String.UnicodeScalarView(text[valueColumn..<end]))
        let key = String(String.UnicodeScalarView(text[keyColumn..<valueColumn])).trimmingSpacesAtEnd()
        let quoted = "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        return error("a value holding ': ' (a colon and a space) must be quoted: write \(key) \(quoted) "
                     + "(unquoted, it reads as a mapping, which cannot start on the same line as its key)", line: line, column: valueColumn)
    }

    /// `- id: a` then `label: A` under the `-`: the line is indented less than the keys
    /// of the list item above (and more than the mapping holding the list), so it
    /// neither continues the item nor starts one.
    func indentedLessThanListItem(_ last: YAMLMapEntry?, following: Int, followingIndent: Int) -> YAMLSyntaxError? {
        guard let item = last?.value.sequenceItems?.last, let first = item.mappingEntries?.first,
              first.key.location.column - 1 > followingIndent else { return nil }
        let itemIndent = first.key.location.column - 1
        return error("this line is indented less than '\(first.keyText)' above it (line \(first.key.location.line)): indent it by "
                     + "\(itemIndent) spaces, like '\(first.keyText)', to continue that list item, or begin it with '- ' for a new item",
                     line: following, column: followingIndent)
    }

    /// A line between two levels: less indented than the block above it,
    /// more than that block's parent.
    func tooLittleIndentation(line: Int, column: Int, expected: Int, parent: Int) -> YAMLSyntaxError {
        error("too little indentation: this line has \(column) spaces, the lines above it \(expected); "
              + "indent it by \(expected) spaces to continue them, or by \(parent) for a new entry of the level above",
              line: line, column: column)
    }

    /// `label:Coffee`: the column of a ':' that follows a key-like word
    /// directly, with text after it (not `http://`), or nil.
    func missingSpaceAfterColon(line: Int, column: Int) -> Int? {
        let text = lines[line]
        guard column < text.count, text[column].properties.isAlphabetic else { return nil }
        var index = column
        while index < text.count, text[index].properties.isAlphabetic || ("0"..."9").contains(text[index])
            || text[index] == "_" || text[index] == "-" { index += 1 }
        guard index + 1 < text.count, text[index] == ":" else { return nil }
        let next = text[index + 1]
        return Self.isSpace(next) || next == "/" || next == ":" ? nil : index
    }

    func missingSpaceError(line: Int, column: Int, colon: Int) -> YAMLSyntaxError {
        let key = String(String.UnicodeScalarView(lines[line][column..<colon]))
        let value = String(String.UnicodeScalarView(lines[line][(colon + 1)...]))
        return error("a space is needed after ':' here: write '\(key): \(value)'", line: line, column: colon + 1)
    }

    /// `-id: x`: a key that starts with '-' and a letter is a list item missing its space.
    func checkDashWithoutSpace(_ key: String, line: Int, column: Int) throws(YAMLSyntaxError) {
        let scalars = Array(key.unicodeScalars)
        guard scalars.count > 1, scalars[0] == "-", scalars[1].properties.isAlphabetic else { return }
        throw error("a list item needs a space after '-': write '- \(String(String.UnicodeScalarView(scalars.dropFirst())))'",
                    line: line, column: column)
    }
}

extension YAMLNode {
    /// A block or flow mapping or sequence.
    var isCollection: Bool { mappingEntries != nil || sequenceItems != nil }
}

extension String {
    /// The text without the spaces at its end.
    func trimmingSpacesAtEnd() -> String {
        var scalars = Array(unicodeScalars)
        while scalars.last == " " { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
