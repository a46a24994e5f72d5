import Testing
@testable import BridgeCore

/// Issue 41 §2: the errors that misled or said nothing in the first hour, each with what
/// it said before (quoted in the doc comment) and what it must say now.
@Suite struct FirstHourErrorTests {
    static let head = "aivi:\n  token_env: AIVI_TOKEN\n"

    static func load(_ text: String) -> ConfigLoadResult {
        ConfigLoader.load(text: head + text, fileName: "bridge.yaml")
    }

    /// A widget's `- ` missing. Before, on the `actions:` line (5:5): "unexpected
    /// indentation: this line is indented more than the keys of its mapping (a plain value
    /// cannot continue on the next line; quote it or use '|' or '>')".
    @Test func aWidgetsMissingDashIsNamedOnItsLine() throws {
        let result = Self.load("widgets:\n  slug: home\n    actions:\n      - id: porch\n        label: Porch\n        zigbee2mqtt: porch\n")
        let error = try #require(result.errors.first)
        #expect(error.location == SourceLocation(line: 4, column: 3), "\(result.rendered())")
        #expect(error.message == "'actions' (line 5) is indented as if 'slug' here began a list item: begin the list item with "
                + "'- ': write '- slug: home'; or, if it is no list item, indent 'actions' by 2 spaces, like 'slug'",
                "\(error.message)")
        #expect(!error.message.contains("plain value"))
    }

    /// `label: Porch: front`. Before (7:16): "a nested mapping cannot start on the same line
    /// as its key; put it on the following lines, indented".
    @Test func aValueHoldingColonSpaceIsToBeQuoted() throws {
        let result = Self.load("widgets:\n  - slug: home\n    actions:\n      - id: porch\n        label: Porch: front # the door\n        zigbee2mqtt: porch\n")
        let error = try #require(result.errors.first)
        #expect(error.location == SourceLocation(line: 7, column: 16))
        #expect(error.message.hasPrefix("a value holding ': ' (a colon and a space) must be quoted: write label: 'Porch: front' "),
                "\(error.message)")
        let fixed = Self.load("widgets:\n  - slug: home\n    actions:\n      - id: porch\n        label: 'Porch: front'\n        zigbee2mqtt: porch\n")
        #expect(fixed.config?.widgets.first?.actions.first?.label == "Porch: front", "\(fixed.rendered())")
        let apostrophe = Self.load("widgets:\n  - slug: home\n    actions:\n      - id: porch\n        label: Bob's: porch\n        zigbee2mqtt: porch\n")
        #expect(apostrophe.errors.first?.message.contains("write label: 'Bob''s: porch'") == true, "\(apostrophe.rendered())")
    }

    /// One extra space. Before (8:10): "unexpected indentation: this line is indented more
    /// than the keys of its mapping (a plain value cannot continue on the next line; quote
    /// it or use '|' or '>')".
    @Test func oneExtraSpaceGetsTheIndentationTheLineNeeds() throws {
        let result = Self.load("widgets:\n  - slug: home\n    actions:\n      - id: porch\n        label: Porch\n         zigbee2mqtt: porch\n")
        let error = try #require(result.errors.first)
        #expect(error.location == SourceLocation(line: 8, column: 10))
        #expect(error.message == "unexpected indentation: this line is indented by 9 spaces, more than 'label' above it (line 7, 8 spaces): indent "
                + "'zigbee2mqtt' by 8 spaces, like 'label', to put it beside it", "\(error.message)")
    }

    /// A plain value that really does go on over the next line keeps its own hint.
    @Test func aPlainValueContinuedOnTheNextLineKeepsItsHint() throws {
        let result = Self.load("widgets:\n  - slug: home\n    actions:\n      - id: porch\n        label: Porch\n          light\n        zigbee2mqtt: porch\n")
        let error = try #require(result.errors.first)
        #expect(error.message.contains("a plain value cannot continue on the next line"), "\(error.message)")
    }

    /// `allow_unlock: yes`. Before (9:23): "'allow_unlock' in action 'front' must be true or
    /// false, not a string".
    @Test(arguments: [("yes", "true"), ("on", "true"), ("No", "false"), ("off", "false")])
    func aYAMLOneOneBooleanSaysWhatToWrite(written: String, meant: String) throws {
        let result = Self.load("widgets:\n  - slug: home\n    actions:\n      - id: front\n        label: Front door\n"
                               + "        esphome_lock: hall/front\n        allow_unlock: \(written)\n")
        let error = try #require(result.errors.first)
        #expect(error.location == SourceLocation(line: 9, column: 23))
        #expect(error.message == "'allow_unlock' in action 'front' must be true or false, not the text '\(written)': write \(meant) "
                + "(in YAML 1.2, which this file is, yes, no, on and off are text)", "\(error.message)")
        let quoted = Self.load("widgets:\n  - slug: home\n    actions:\n      - id: front\n        label: Front door\n"
                               + "        esphome_lock: hall/front\n        allow_unlock: 'yes'\n")
        #expect(quoted.errors.first?.message.hasSuffix("not a string") == true, "a quoted 'yes' is meant as text")
    }

    /// `color: yelow` and an icon no page draws. Before: "config ok", no warning.
    @Test func aMisspeltColorOrIconIsWarnedAboutWithTheNearestName() throws {
        let result = Self.load("widgets:\n  - slug: home\n    actions:\n      - id: porch\n        label: Porch\n"
                               + "        color: yelow\n        icon: lightbul.fill\n        zigbee2mqtt: porch\n")
        #expect(result.config != nil, "a warning, not an error: the phone may know names the bridge does not")
        let color = try #require(result.warnings.first { $0.message.hasPrefix("'color'") })
        #expect(color.location == SourceLocation(line: 8, column: 16))
        #expect(color.message.hasPrefix("'color' in action 'porch' is 'yelow', not a color the bridge knows (did you mean 'yellow'? "
                                        + "the named colors: blue, cyan, green, orange, pink, purple, red, teal, yellow, or '#RRGGBB')"),
                "\(color.message)")
        let icon = try #require(result.warnings.first { $0.message.hasPrefix("'icon'") })
        #expect(icon.location == SourceLocation(line: 9, column: 15))
        #expect(icon.message.hasPrefix("'icon' in action 'porch' is 'lightbul.fill', a symbol the bridge's pages cannot draw "
                                       + "(did you mean 'lightbulb.fill'?)"), "\(icon.message)")
        let known = Self.load("widgets:\n  - slug: home\n    actions:\n      - id: porch\n        label: Porch\n"
                              + "        color: '#FFAA00'\n        icon: lightbulb.fill\n        zigbee2mqtt: porch\n")
        #expect(known.diagnostics.isEmpty, "\(known.rendered())")
    }
}
