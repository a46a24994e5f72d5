/// The result of parsing a YAML document: the root node when the document is
/// inside the subset, and every error found.
public struct YAMLParseResult: Sendable {
    /// The document's root; nil when there is any syntax error.
    public var root: YAMLNode?
    /// The document's root even when the only errors are duplicate keys
    /// (both entries are kept, in file order), so a caller can report later
    /// problems of the file as well; nil after any other error.
    public var rootDespiteDuplicateKeys: YAMLNode?
    /// Syntax errors, in file order. Checks of single lines (tabs, control
    /// characters, document markers) and duplicate keys are all reported; a
    /// structural error stops the parse, so it is the last one.
    public var errors: [YAMLSyntaxError]
    /// Errors found but not kept (the same checks on too many lines).
    public var omittedErrorCount = 0
}

/// A parser for the strict YAML 1.2 subset of switchboard-bridge's config file.
///
/// Supported: block mappings and sequences (including a sequence at the same
/// indentation as its key), plain, single-quoted and double-quoted scalars on
/// one line, `#` comments, flow sequences `[a, b]` and flow mappings `{a: 1}`
/// that close on the line they open, literal `|` and folded `>` block scalars
/// with chomping (`-`, `+`) and indentation indicators. Scalars are typed by
/// the core schema. A UTF-8 byte order mark and CRLF line endings are accepted.
///
/// Refused with an error naming the feature: anchors `&`, aliases `*`, tags
/// `!`, complex keys `?`, tabs for indentation, `---`/`...` document markers,
/// `%` directives, scalars spanning lines (other than block scalars), flow
/// collections spanning lines, duplicate keys.
public enum YAMLParser {
    public static func parse(_ text: String) -> YAMLParseResult {
        let source = YAMLSourceText(text)
        guard source.errors.isEmpty else {
            // The structure is not parsed: name the tabs in indentation too (the
            // parser would, unless they sit inside '|'/'>' text), within the same bound.
            let room = max(0, YAMLSourceText.maxErrors - source.errors.count)
            let tabs = source.tabIndentColumns.sorted { $0.key < $1.key }.prefix(room).map { line, column in
                YAMLSyntaxError("tabs are not allowed for indentation; indent with spaces", at: SourceLocation(line: line + 1, column: column + 1))
            }
            let errors = (source.errors + tabs).sorted { $0.location < $1.location }
            return YAMLParseResult(root: nil, rootDespiteDuplicateKeys: nil, errors: errors,
                                   omittedErrorCount: source.omittedErrorCount + source.tabIndentColumns.count - tabs.count)
        }
        var parser = YAMLBlockParser(source: source)
        do {
            let root = try parser.parseDocument()
            let errors = parser.duplicateKeyErrors
            let isClean = errors.isEmpty && parser.omittedDuplicateKeyCount == 0
            return YAMLParseResult(root: isClean ? root : nil, rootDespiteDuplicateKeys: root, errors: errors,
                                   omittedErrorCount: parser.omittedDuplicateKeyCount)
        } catch {
            return YAMLParseResult(root: nil, rootDespiteDuplicateKeys: nil, errors: parser.duplicateKeyErrors + [error],
                                   omittedErrorCount: parser.omittedDuplicateKeyCount)
        }
    }
}

/// Parses the block structure line by line. Columns are 0-based inside,
/// locations 1-based.
struct YAMLBlockParser {
    let lines: [SourceLine]
    let endsWithLineBreak: Bool
    /// Lines whose indentation holds a tab (line → column of the tab).
    let tabIndentColumns: [Int: Int]
    /// At most `YAMLSourceText.maxErrors`; the rest are counted.
    var duplicateKeyErrors: [YAMLSyntaxError] = []
    var omittedDuplicateKeyCount = 0
    /// How many block collections enclose the node being parsed.
    var blockDepth = 0
    /// Nodes parsed so far in this document (bounded by `YAMLNodeBudget.maxNodes`).
    let nodeBudget = YAMLNodeBudget()

    /// The deepest nesting of collections accepted, block and flow alike.
    static let maxNestingDepth = 64

    init(source: YAMLSourceText) {
        lines = source.lines
        endsWithLineBreak = source.endsWithLineBreak
        tabIndentColumns = source.tabIndentColumns
    }

    mutating func parseDocument() throws(YAMLSyntaxError) -> YAMLNode {
        guard let first = nextContentLine(from: 0) else {
            return YAMLNode(.scalar(YAMLScalar(text: "", style: .plain)), at: SourceLocation(line: 1, column: 1))
        }
        try checkNoTabIndentation(first)
        let (root, next) = try parseBlockNode(line: first, column: indentation(of: first), parentIndent: -1)
        if let extra = nextContentLine(from: next) {
            throw error("unexpected content after the end of the document's top-level node; check the indentation",
                        line: extra, column: indentation(of: extra))
        }
        return root
    }

    // MARK: Block nodes

    /// A node whose first character is at `line`/`column`.
    mutating func parseBlockNode(line: Int, column: Int, parentIndent: Int) throws(YAMLSyntaxError) -> (YAMLNode, Int) {
        blockDepth += 1
        defer { blockDepth -= 1 }
        if blockDepth > Self.maxNestingDepth {
            throw error("collections are nested more than \(Self.maxNestingDepth) levels deep", line: line, column: column)
        }
        if isSequenceIndicator(line: line, column: column) {
            return try parseBlockSequence(line: line, indent: column)
        }
        if try mappingKey(line: line, column: column) != nil {
            return try parseBlockMapping(line: line, indent: column)
        }
        if let colon = missingSpaceAfterColon(line: line, column: column), let following = nextContentLine(from: line + 1),
           indentation(of: following) == column, (try? mappingKey(line: following, column: column)) != nil {
            throw missingSpaceError(line: line, column: column, colon: colon)
        }
        return try parseValueToLineEnd(line: line, column: column, parentIndent: parentIndent)
    }

    mutating func parseBlockMapping(line startLine: Int, indent: Int) throws(YAMLSyntaxError) -> (YAMLNode, Int) {
        var entries: [YAMLMapEntry] = []
        var firstSeen: [String: SourceLocation] = [:]
        var line = startLine
        var next = startLine + 1
        while true {
            guard let (key, afterColon) = try mappingKey(line: line, column: indent) else {
                if let colon = missingSpaceAfterColon(line: line, column: indent) {
                    throw missingSpaceError(line: line, column: indent, colon: colon)
                }
                let found = isSequenceIndicator(line: line, column: indent) ? "a list item '- '" : "something else"
                throw error("expected a 'key: value' line of the mapping here, found \(found)", line: line, column: indent)
            }
            recordKey(key, firstSeen: &firstSeen)
            try countNodes(2, line: line, column: indent)
            let value: YAMLNode
            (value, next) = try parseMappingValue(line: line, column: afterColon, mappingIndent: indent)
            entries.append(YAMLMapEntry(key: key, value: value))
            guard let following = nextContentLine(from: next) else { break }
            try checkNoTabIndentation(following)
            let followingIndent = indentation(of: following)
            if followingIndent < indent { break }
            if followingIndent > indent {
                throw misindentedAfterMapping(entries, line: line, following: following, followingIndent: followingIndent, indent: indent)
            }
            line = following
        }
        return (YAMLNode(.mapping(entries), at: location(startLine, indent)), next)
    }

    private mutating func parseMappingValue(line: Int, column afterColon: Int, mappingIndent: Int) throws(YAMLSyntaxError) -> (YAMLNode, Int) {
        let column = skipSpaces(line: line, from: afterColon)
        if isLineEnd(line: line, column: column) {
            return try parseNestedBlockOrNull(after: line, parentIndent: mappingIndent, allowsSequenceAtSameIndent: true,
                                              emptyAt: location(line, afterColon))
        }
        if isSequenceIndicator(line: line, column: column) {
            throw error("a list cannot start on the same line as its key; put the '- ' items on the following lines",
                        line: line, column: column)
        }
        if try mappingKey(line: line, column: column) != nil {
            throw valueHoldingColonSpace(line: line, keyColumn: mappingIndent, valueColumn: column)
        }
        return try parseValueToLineEnd(line: line, column: column, parentIndent: mappingIndent)
    }

    mutating func parseBlockSequence(line startLine: Int, indent: Int) throws(YAMLSyntaxError) -> (YAMLNode, Int) {
        var items: [YAMLNode] = []
        var line = startLine
        var next = startLine + 1
        while true {
            let column = skipSpaces(line: line, from: indent + 1)
            try checkNoTabBeforeNestedCollection(line: line, from: indent + 1, to: column)
            try countNodes(1, line: line, column: indent)
            let item: YAMLNode
            if isLineEnd(line: line, column: column) {
                (item, next) = try parseNestedBlockOrNull(after: line, parentIndent: indent, allowsSequenceAtSameIndent: false,
                                                          emptyAt: location(line, indent + 1))
            } else {
                (item, next) = try parseBlockNode(line: line, column: column, parentIndent: indent)
            }
            items.append(item)
            guard let following = nextContentLine(from: next) else { break }
            try checkNoTabIndentation(following)
            let followingIndent = indentation(of: following)
            if followingIndent < indent { break }
            if followingIndent > indent {
                if let nested = items.last, nested.isCollection, nested.location.column - 1 > followingIndent {
                    throw tooLittleIndentation(line: following, column: followingIndent, expected: nested.location.column - 1, parent: indent)
                }
                throw error("unexpected indentation: this line is indented more than the '- ' items of its list",
                            line: following, column: followingIndent)
            }
            guard isSequenceIndicator(line: following, column: indent) else { break }
            line = following
        }
        return (YAMLNode(.sequence(items), at: location(startLine, indent)), next)
    }

    /// The value of a key or list item whose line ends after the indicator:
    /// a block node on the following lines, or null. A list may sit at the same
    /// indentation as its key (`key:` then `- item`).
    private mutating func parseNestedBlockOrNull(after line: Int, parentIndent: Int, allowsSequenceAtSameIndent: Bool,
                                                 emptyAt empty: SourceLocation) throws(YAMLSyntaxError) -> (YAMLNode, Int) {
        guard let following = nextContentLine(from: line + 1) else { return (Self.nullNode(at: empty), line + 1) }
        try checkNoTabIndentation(following)
        let followingIndent = indentation(of: following)
        if followingIndent > parentIndent {
            return try parseBlockNode(line: following, column: followingIndent, parentIndent: parentIndent)
        }
        if allowsSequenceAtSameIndent, followingIndent == parentIndent, isSequenceIndicator(line: following, column: followingIndent) {
            // A collection like any other: it counts towards the nesting limit.
            blockDepth += 1
            defer { blockDepth -= 1 }
            if blockDepth > Self.maxNestingDepth {
                throw error("collections are nested more than \(Self.maxNestingDepth) levels deep", line: following, column: followingIndent)
            }
            return try parseBlockSequence(line: following, indent: followingIndent)
        }
        return (Self.nullNode(at: empty), line + 1)
    }

    static func nullNode(at location: SourceLocation) -> YAMLNode {
        YAMLNode(.scalar(YAMLScalar(text: "", style: .plain)), at: location)
    }

    private mutating func recordKey(_ key: YAMLNode, firstSeen: inout [String: SourceLocation]) {
        let text = key.scalar?.jsonKeyText ?? ""
        if let first = firstSeen[text] {
            guard duplicateKeyErrors.count < YAMLSourceText.maxErrors else { omittedDuplicateKeyCount += 1; return }
            duplicateKeyErrors.append(YAMLSyntaxError("duplicate key '\(text)' (first defined at \(first))", at: key.location))
        } else {
            firstSeen[text] = key.location
        }
    }

    // MARK: Lines

    func indentation(of line: Int) -> Int {
        lines[line].prefix(while: { $0 == " " }).count
    }

    /// A line with nothing but white space or a comment.
    func isBlank(_ line: Int) -> Bool {
        let first = lines[line].first(where: { $0 != " " && $0 != "\t" })
        return first == nil || first == "#"
    }

    func nextContentLine(from line: Int) -> Int? {
        var index = line
        while index < lines.count {
            if !isBlank(index) { return index }
            index += 1
        }
        return nil
    }

    func isSequenceIndicator(line: Int, column: Int) -> Bool {
        let text = lines[line]
        guard column < text.count, text[column] == "-" else { return false }
        return column + 1 == text.count || Self.isSpace(text[column + 1])
    }

    /// Nothing but white space or a comment from `column` on.
    func isLineEnd(line: Int, column: Int) -> Bool {
        let text = lines[line]
        return column >= text.count || (text[column] == "#" && (column == 0 || Self.isSpace(text[column - 1])))
    }

    func skipSpaces(line: Int, from column: Int) -> Int {
        var index = column
        while index < lines[line].count, Self.isSpace(lines[line][index]) { index += 1 }
        return index
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t"
    }

    func location(_ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(line: line + 1, column: column + 1)
    }

    func error(_ message: String, line: Int, column: Int) -> YAMLSyntaxError {
        YAMLSyntaxError(message, at: location(line, column))
    }
}
