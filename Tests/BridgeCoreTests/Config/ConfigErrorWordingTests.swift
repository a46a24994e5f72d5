import Testing
@testable import BridgeCore

/// Each way a hand-written config goes wrong gets its own message and hint, on
/// the line that is wrong (issue 13, "Errors that point the wrong way").
@Suite struct ConfigErrorWordingTests {
    static let widgets = """
    widgets:
      - slug: w
        actions:
          - id: a
            label: A
            publish: {topic: a/b, payload: go}

    """

    static func firstError(_ text: String) -> ConfigDiagnostic? {
        ConfigLoader.load(text: text, fileName: "bridge.yaml").errors.first
    }

    @Test func tooLittleIndentationUnderASectionIsNamedAsSuch() throws {
        let text = "aivi:\n  token_env: T\nmqtt:\n    host: a\n  port: 1\n" + Self.widgets
        let error = try #require(Self.firstError(text))
        #expect(error.location == SourceLocation(line: 5, column: 3))
        #expect(error.message.hasPrefix("too little indentation: this line has 2 spaces, the lines above it 4"), "\(error.message)")
    }

    @Test func tooLittleIndentationInAListItemIsNamedAsSuch() throws {
        let text = "aivi:\n  token_env: T\nwidgets:\n  - slug: w\n    actions:\n      - id: a\n        label: A\n       publish: {topic: a, payload: b}\n"
        let error = try #require(Self.firstError(text))
        #expect(error.location == SourceLocation(line: 8, column: 8))
        #expect(error.message.hasPrefix("too little indentation: this line has 7 spaces, the lines above it 8"), "\(error.message)")
    }

    /// Issue 22 item 14: a `label:` under the `-` of `- id:` is indented less than `id`,
    /// not "more than the keys of its mapping"; after another key of the item too.
    @Test(arguments: [
        "      - id: a\n      label: A\n        publish: {topic: a, payload: b}\n",
        "      - id: a\n        publish: {topic: a, payload: b}\n      label: A\n",
    ])
    func aKeyIndentedLessThanItsListItemsKeysIsCalledLess(actions: String) throws {
        let text = "aivi:\n  token_env: T\nwidgets:\n  - slug: w\n    actions:\n" + actions
        let error = try #require(Self.firstError(text))
        let line = actions.split(separator: "\n").firstIndex { $0.hasPrefix("      label") }.map { $0 + 6 } ?? 0
        #expect(error.location == SourceLocation(line: line, column: 7))
        #expect(error.message == "this line is indented less than 'id' above it (line 6): indent it by 8 spaces, like 'id', "
            + "to continue that list item, or begin it with '- ' for a new item", "\(error.message)")
    }

    @Test func aMissingSpaceAfterTheDashIsNamed() throws {
        let text = "aivi:\n  token_env: T\nwidgets:\n  - slug: w\n    actions:\n      -id: a\n        label: A\n"
        let error = try #require(Self.firstError(text))
        #expect(error.location == SourceLocation(line: 6, column: 7))
        #expect(error.message == "a list item needs a space after '-': write '- id'", "\(error.message)")
    }

    @Test func aMissingSpaceAfterTheColonIsNamed() throws {
        let text = "aivi:\n  token_env: T\nwidgets:\n  - slug: w\n    actions:\n      - id: a\n        label:Coffee\n"
        let error = try #require(Self.firstError(text))
        #expect(error.location == SourceLocation(line: 7, column: 15))
        #expect(error.message == "a space is needed after ':' here: write 'label: Coffee'", "\(error.message)")
        let first = "aivi:\n  token_env: T\nwidgets:\n  - slug: w\n    actions:\n      - label:Coffee\n        id: a\n"
        let firstError = try #require(Self.firstError(first))
        #expect(firstError.location == SourceLocation(line: 6, column: 15))
        #expect(firstError.message.hasPrefix("a space is needed after ':'"))
    }

    @Test func anUnindentedKeyUnderASectionIsReportedOnItsOwnLine() throws {
        let nested = "aivi:\n  token_env: T\nmqtt:\nhost: 127.0.0.1\n  port: 1883\n" + Self.widgets
        let error = try #require(Self.firstError(nested))
        #expect(error.location == SourceLocation(line: 4, column: 1))
        #expect(error.message.hasPrefix("'host' is not indented, so it is not inside 'mqtt:'"), "\(error.message)")
        let flat = "aivi:\n  token_env: T\nmqtt:\nhost: 127.0.0.1\nport: 1883\n" + Self.widgets
        let errors = ConfigLoader.load(text: flat, fileName: "bridge.yaml").errors
        #expect(errors.map(\.location.line) == [4, 5])
        #expect(errors.allSatisfy { $0.message.contains("it belongs under 'mqtt:' above, which is left empty: indent it") },
                "\(errors.map(\.message))")
    }

    @Test(arguments: [("tasmotta: coffee", "tasmota"), ("zigbee: kitchen", "zigbee2mqtt"), ("shely: relay", "shelly")])
    func aMisspeltPresetIsReportedAloneWithItsSuggestion(line: String, preset: String) throws {
        let text = "aivi:\n  token_env: T\nwidgets:\n  - slug: w\n    actions:\n      - id: a\n        label: A\n        \(line)\n"
        let errors = ConfigLoader.load(text: text, fileName: "bridge.yaml").errors
        #expect(errors.count == 1, "\(errors.map(\.message))")
        #expect(errors.first?.location == SourceLocation(line: 8, column: 9))
        #expect(errors.first?.message.contains("(did you mean '\(preset)'?)") == true, "\(errors.map(\.message))")
    }
}

/// Tabs as the official YAML test suite has them (J3BT, Y79Y, DK95).
@Suite struct YAMLTabRuleTests {
    @Test(arguments: [
        ("block: |\n  void main() {\n  \tprintf(\"hi\");\n  }\n", #"{"block":"void main() {\n\tprintf(\"hi\");\n}\n"}"#),
        ("a: >\n  x\n  \ty\n", #"{"a":"x\n\ty\n"}"#),
        ("foo: |\n \t\nbar: 1\n", #"{"foo":"\t\n","bar":1}"#),
        ("-\t-1\n", #"[-1]"#),
        ("-\tx\n", #"["x"]"#),
        ("foo: 1\n\t\nbar: 2\n", #"{"foo":1,"bar":2}"#),
        (" \t\nfoo: 1\n", #"{"foo":1}"#),
    ])
    func tabsYAMLAccepts(input: String, expected: String) {
        let result = YAMLParser.parse(input)
        #expect(result.root?.jsonValue.serialized() == expected, "\(result.errors)")
    }

    @Test(arguments: [
        ("-\t- x\n", 1, 2, "a tab after '-'"),
        ("-\ta: 1\n", 1, 2, "a tab after '-'"),
        ("- -\t- x\n", 1, 4, "a tab after '-'"),
        ("foo: |\n\t\nbar: 1\n", 2, 1, "a tab in the indentation of block text"),
        ("foo:\n\tbar\n", 2, 1, "tabs are not allowed for indentation"),
        ("foo:\n  a: 1\n  \tb: 2\n", 3, 3, "tabs are not allowed for indentation"),
    ])
    func tabsYAMLRefuses(input: String, line: Int, column: Int, words: String) throws {
        let error = try #require(YAMLParser.parse(input).errors.first, "accepted: \(input)")
        #expect(error.location == SourceLocation(line: line, column: column))
        #expect(error.message.contains(words), "\(error.message)")
    }
}
