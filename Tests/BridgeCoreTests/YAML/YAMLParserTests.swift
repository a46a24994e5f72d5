import Testing
@testable import BridgeCore

@Suite struct YAMLParserTests {
    private static func json(_ text: String) -> String? {
        let result = YAMLParser.parse(text)
        return result.root?.jsonValue.serialized()
    }

    @Test(arguments: [
        ("", "null"),
        ("# only a comment\n", "null"),
        ("a: 1\nb: two\n", #"{"a":1,"b":"two"}"#),
        ("a:\n  b:\n    c: x\n", #"{"a":{"b":{"c":"x"}}}"#),
        ("- a\n- b\n", #"["a","b"]"#),
        ("a:\n- 1\n- 2\nb: 3\n", #"{"a":[1,2],"b":3}"#),
        ("a:\n  - x: 1\n    y: 2\n  - z\n", #"{"a":[{"x":1,"y":2},"z"]}"#),
        ("- - a\n  - b\n- c\n", #"[["a","b"],"c"]"#),
        ("-\n  a: 1\n", #"[{"a":1}]"#),
        ("a:\nb:\n", #"{"a":null,"b":null}"#),
        ("a: ~\nb: null\nc: Null\n", #"{"a":null,"b":null,"c":null}"#),
        ("t: true\nf: False\nT: TRUE\n", #"{"t":true,"f":false,"T":true}"#),
        ("i: 42\nn: -7\np: +3\nh: 0x1F\no: 0o17\n", #"{"i":42,"n":-7,"p":3,"h":31,"o":15}"#),
        ("f: 1.5\ng: -.25\ne: 1e3\nx: 2.\n", #"{"f":1.5,"g":-0.25,"e":1000,"x":2}"#),
        ("s: yes\nt: 3.1.1\nu: 1:20\nv: on\n", #"{"s":"yes","t":"3.1.1","u":"1:20","v":"on"}"#),
        ("q: 'it''s'\nd: \"a\\tb\\n\\\"c\\\" \\u00e9 \\x41 \\U0001F600\"\n", #"{"q":"it's","d":"a\tb\n\"c\" é A 😀"}"#),
        ("q: '1'\nd: \"true\"\n", #"{"q":"1","d":"true"}"#),
        ("url: https://x.example:8080/a#frag\n", #"{"url":"https://x.example:8080/a#frag"}"#),
        ("a: b # comment\nc: d#e\n", #"{"a":"b","c":"d#e"}"#),
        ("a: [1, two, \"3\", [x], {k: v}]\n", #"{"a":[1,"two","3",["x"],{"k":"v"}]}"#),
        ("a: {x: 1, y: [a, b], z}\n", #"{"a":{"x":1,"y":["a","b"],"z":null}}"#),
        ("a: {\"x\":1}\nb: []\nc: {}\n", #"{"a":{"x":1},"b":[],"c":{}}"#),
        ("a: |\n  line 1\n  line 2\nb: x\n", #"{"a":"line 1\nline 2\n","b":"x"}"#),
        ("a: |-\n  text\n\n", #"{"a":"text"}"#),
        ("a: |+\n  text\n\n\nb: 1\n", #"{"a":"text\n\n\n","b":1}"#),
        ("a: >\n  one\n  two\n\n  three\n    indented\n  four\n", #"{"a":"one two\nthree\n  indented\nfour\n"}"#),
        ("a: >-\n  folded\n  text\n", #"{"a":"folded text"}"#),
        ("- |\n  in a list\n- x\n", #"["in a list\n","x"]"#),
        ("a: |2\n    two extra\n", #"{"a":"  two extra\n"}"#),
        ("\u{FEFF}a: 1\r\nb: 2\r\n", #"{"a":1,"b":2}"#),
        ("  a: 1\n  b: 2\n", #"{"a":1,"b":2}"#),
        ("key with spaces: value with spaces  \n", #"{"key with spaces":"value with spaces"}"#),
        ("1: one\ntrue: yes\n", #"{"1":"one","true":"yes"}"#),
        ("a:\n  value on next line\n", #"{"a":"value on next line"}"#),
        ("a: -x\nb: :y\nc: ?z\n", #"{"a":"-x","b":":y","c":"?z"}"#),
    ])
    func parsesSubset(input: String, expected: String) {
        #expect(Self.json(input) == expected, "\(YAMLParser.parse(input).errors)")
    }

    /// Every error class with its exact line:column and a word naming it.
    @Test(arguments: [
        ("a: &x 1\n", 1, 4, "anchors"),
        ("a: *x\n", 1, 4, "aliases"),
        ("a: !tag x\n", 1, 4, "tags"),
        ("? complex\n: v\n", 1, 1, "complex"),
        ("a:\n\tb: 1\n", 2, 1, "tabs"),
        ("---\na: 1\n", 1, 1, "documents"),
        ("a: 1\n...\n", 2, 1, "document end"),
        ("%YAML 1.2\na: 1\n", 1, 1, "directives"),
        ("a: 1\na: 2\n", 2, 1, "duplicate key 'a' (first defined at 1:1)"),
        ("a: {x: 1, x: 2}\n", 1, 11, "duplicate key 'x'"),
        ("a: 'open\n", 1, 4, "single-quoted"),
        ("a: \"open\n", 1, 4, "double-quoted"),
        ("a: \"bad \\q\"\n", 1, 9, "unknown escape"),
        ("a: \"\\u12\"\n", 1, 5, "hexadecimal"),
        ("a: [1, 2\n", 1, 4, "closed"),
        ("a: [1,, 2]\n", 1, 7, "empty entry"),
        ("a: [x: 1]\n", 1, 6, "flow list"),
        ("a: b: c\n", 1, 4, "must be quoted: write a: 'b: c'"),
        ("a: - b\n", 1, 4, "list cannot start"),
        ("a: 1\n  b: 2\n", 2, 3, "unexpected indentation"),
        ("a:\n  - x\n  y: 1\n", 3, 3, "unexpected indentation"),
        ("a: b\n- c\n", 2, 1, "expected a 'key: value'"),
        ("- a\nb: 1\n", 2, 1, "unexpected content"),
        ("a: \"x\" y\n", 1, 8, "unexpected text"),
        ("a: @x\n", 1, 4, "'@'"),
        ("a: %x\n", 1, 4, "'%'"),
        ("a: |x\n", 1, 5, "block scalar header"),
        ("a: | text\n", 1, 6, "line after"),
        ("a: [|]\n", 1, 5, "block scalars"),
        ("a: x\u{1}\n", 1, 5, "control character U+0001"),
        ("a: x\rb: y\n", 1, 5, "carriage return"),
        ("[a]: 1\n", 1, 1, "cannot be a mapping key"),
        (": x\n", 1, 1, "key is missing"),
    ])
    func reportsErrors(input: String, line: Int, column: Int, fragment: String) {
        let result = YAMLParser.parse(input)
        #expect(result.root == nil)
        let first = result.errors.first
        #expect(first?.location == SourceLocation(line: line, column: column), "\(result.errors)")
        #expect(first?.message.contains(fragment) == true, "\(result.errors)")
    }

    @Test func reportsEveryLineLevelErrorAtOnce() {
        let result = YAMLParser.parse("a:\n\tb: 1\nc: \u{7}\n---\n")
        #expect(result.errors.map(\.location) == [
            SourceLocation(line: 2, column: 1), SourceLocation(line: 3, column: 4), SourceLocation(line: 4, column: 1),
        ])
    }

    @Test(arguments: [
        "a: " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "\n",
        (0..<100).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + "\n",
    ])
    func refusesDeepNesting(input: String) {
        let result = YAMLParser.parse(input)
        #expect(result.root == nil)
        #expect(result.errors.first?.message.contains("nested more than 64 levels") == true, "\(result.errors)")
    }

    /// Issue 12: a list at the same indentation as its key (`k:` then `- k:`)
    /// counts as a level too; 33 such pairs are 66 collections.
    @Test func aListAtTheIndentOfItsKeyCountsTowardsTheLimit() {
        var lines = ["k0:"]
        for level in 1..<33 { lines.append(String(repeating: " ", count: (level - 1) * 2) + "- k\(level):") }
        lines.append(String(repeating: " ", count: 64) + "- leaf")
        let result = YAMLParser.parse(lines.joined(separator: "\n") + "\n")
        #expect(result.root == nil)
        #expect(result.errors.first?.message.contains("nested more than 64 levels") == true, "\(result.errors)")
        let shallow = Array(lines.prefix(31)) + [String(repeating: " ", count: 60) + "- leaf"]
        #expect(YAMLParser.parse(shallow.joined(separator: "\n") + "\n").errors.isEmpty)
    }

    /// Issue 12: a line of control characters is one error, not one per character.
    @Test func oneControlCharacterErrorPerLine() {
        let result = YAMLParser.parse("a: " + String(repeating: "\u{1}", count: 1_000) + "\nb: \u{7}\n")
        #expect(result.errors.map(\.location) == [SourceLocation(line: 1, column: 4), SourceLocation(line: 2, column: 4)])
        #expect(result.errors.first?.message.hasSuffix("(and 999 more on this line)") == true)
    }

    @Test func acceptsNestingUpToTheLimit() {
        let input = "a: " + String(repeating: "[", count: 60) + String(repeating: "]", count: 60) + "\n"
        #expect(YAMLParser.parse(input).errors.isEmpty)
    }

    @Test func reportsEveryDuplicateKey() {
        let result = YAMLParser.parse("a: 1\nb: 2\na: 3\nb: 4\n")
        #expect(result.errors.map(\.location.line) == [3, 4])
    }

    @Test func nodesCarryLocations() throws {
        let root = try #require(YAMLParser.parse("top:\n  - id: x\n    label: \"L\"\n").root)
        let entry = try #require(root.mappingEntries?.first)
        #expect(entry.key.location == SourceLocation(line: 1, column: 1))
        #expect(entry.value.location == SourceLocation(line: 2, column: 3))
        let item = try #require(entry.value.sequenceItems?.first?.mappingEntries)
        #expect(item[0].key.location == SourceLocation(line: 2, column: 5))
        #expect(item[1].value.location == SourceLocation(line: 3, column: 12))
        #expect(item[1].value.scalar?.style == .doubleQuoted)
    }
}
