import Testing
import CoreTestSupport
@testable import BridgeCore

@Suite struct DiscoveryOutputTests {
    @Test func allSourcesWriteAConfigTheLoaderAccepts() {
        let text = discoveredConfig(allSourcesMessages)
        let loaded = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(loaded.errors.isEmpty, "\(loaded.rendered())")
    }

    @Test func anAbsurdlyLongAnnouncedNameBecomesAShortLabel() {
        let longName = String(repeating: "Lamp ", count: 20_000)
        let announcement = DiscoveryFixtures.tasmotaSingleRelay.replacingAll(#""fn":["Tasmota","#, with: "\"fn\":[\"\(longName)\",")
        let text = discoveredConfig([("tasmota/discovery/A4CF12B3C4D5/config", announcement)])
        let label = text.split(separator: "\n").map { $0.drop { $0 == " " } }.first { $0.hasPrefix("label: ") }
        #expect(label != nil)
        #expect((label?.count ?? .max) <= "label: ".count + DiscoveredConfigWriter.maxLabelCharacters + 2)
        #expect(label?.hasSuffix("…") == true || label?.hasSuffix("…'") == true || label?.hasSuffix("…\"") == true)
    }

    /// The review's `discover`: a retained announcement named with 2,000,000 characters
    /// (and a wildcard topic, so it is skipped) made one stderr line of 2,000,168
    /// characters, and thousands of them a report of megabytes. Each skipped thing is
    /// now one bounded line without control characters, and at most 100 are listed.
    @Test func theSkippedReportIsBoundedWhateverIsAnnounced() {
        let huge = #"{"name":"\#(String(repeating: "Q", count: 2_000_000))\u001b[2J","command_topic":"c/#","state_topic":"+/x"}"#
        var messages = [("homeassistant/switch/huge/config", huge)]
        for index in 0..<300 {
            messages.append(("homeassistant/switch/dev\(index)/config", #"{"name":"Dev \#(index)","command_topic":"c/#\#(index)"}"#))
        }
        let result = discover(messages)
        #expect(result.toggles.isEmpty)
        #expect(result.skipped.count == 301)
        let lines = result.skipped.listed(prefix: "  ")
        #expect(lines.count == [SkippedThing].maxListed + 1)
        #expect(lines.last == "  … and 201 more")
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= 400 && !$0.unicodeScalars.contains(where: DisplayText.isControl) })
        let written = discoveredConfig(messages + [("homeassistant/switch/ok/config", DiscoveryFixtures.haAbbreviatedSwitch)])
        #expect(written.split(separator: "\n").allSatisfy { $0.unicodeScalars.count <= 400 })
    }

    /// Issue 19 item 15: `"pl_on":""` was written as `payload_on: ''` and (as the
    /// state value it defaults to) `on_value: ''`, which check refuses; a template key
    /// holding a dot was written as `state_field: a.b`, which reads `a` then `b`.
    /// Both are skipped with the reason, and the rest still loads.
    @Test func aToggleTheConfigCannotSpellIsSkippedWithTheReason() {
        let messages = [
            ("homeassistant/switch/empty/config", #"{"name":"Empty","cmd_t":"e/set","stat_t":"e/state","pl_on":""}"#),
            ("homeassistant/switch/emptyavail/config", #"{"name":"Gone","cmd_t":"g/set","avty_t":"g/lwt","pl_avail":""}"#),
            ("homeassistant/switch/dotted/config", #"{"name":"Dotted","cmd_t":"d/set","stat_t":"d/state","val_tpl":"{{ value_json['a.b'] }}"}"#),
            ("homeassistant/switch/fine/config", #"{"name":"Fine","cmd_t":"f/set","stat_t":"f/state","val_tpl":"{{ value_json.a.b }}"}"#),
        ]
        let result = discover(messages)
        #expect(result.toggles.map(\.label) == ["Fine"])
        let reasons = Dictionary(uniqueKeysWithValues: result.skipped.map { ($0.what, $0.reason) })
        #expect(reasons.first { $0.key.hasPrefix("'Empty'") }?.value.contains("payload_on would be empty") == true, "\(reasons)")
        #expect(reasons.first { $0.key.hasPrefix("'Gone'") }?.value.contains("available_value would be empty") == true, "\(reasons)")
        #expect(reasons.first { $0.key.hasPrefix("'Dotted'") }?.value.contains("JSON key 'a.b'") == true, "\(reasons)")
        let text = DiscoveredConfigWriter.text(result, options: DiscoveryOptions())
        #expect(text.contains("state_field: a.b\n"))  // the Fine one: value_json.a.b
        #expect(!text.contains("''"))
        let loaded = ConfigLoader.load(text: text, fileName: "b.yaml")
        #expect(loaded.errors.isEmpty, "\(loaded.rendered())")
    }

    /// Issue 19 item 14: more than ~760 toggles made one widget over the 64 KiB the
    /// service accepts, and check refused the file. They are shared among widgets
    /// (`home`, `home-2`, ...), each within the limit in its longest state, and the
    /// file says which widgets to create.
    @Test func eightHundredTogglesAreSharedAmongWidgetsCheckAccepts() throws {
        let messages = (0..<800).map { index in
            ("homeassistant/switch/dev\(index)/config",
             #"{"name":"Living room lamp \#(index)","cmd_t":"lamp/\#(index)/set","stat_t":"lamp/\#(index)/state"}"#)
        }
        let result = discover(messages)
        #expect(result.toggles.count == 800)
        let text = DiscoveredConfigWriter.text(result, options: DiscoveryOptions())
        let loaded = ConfigLoader.load(text: text, fileName: "b.yaml")
        #expect(loaded.errors.isEmpty, "\(loaded.rendered().prefix(2_000))")
        let widgets = try #require(loaded.config?.widgets)
        #expect(widgets.count >= 2)
        #expect(widgets.map(\.slug) == ["home"] + (2...widgets.count).map { "home-\($0)" })
        #expect(widgets.reduce(0) { $0 + $1.actions.count } == 800)
        #expect(widgets.allSatisfy { WidgetTemplate(widget: $0).largestBodyBytes <= SwitchboardContentRules.maxPatchBodyBytes })
        // Full: the first widget could not take the second's first action.
        let first = widgets[0]
        let grown = WidgetConfig(slug: first.slug, actions: first.actions + [widgets[1].actions[0]])
        #expect(WidgetTemplate(widget: grown).largestBodyBytes > SwitchboardContentRules.maxPatchBodyBytes)
        #expect(text.contains("Create each of them in the Aivi app: home, home-2"))
        #expect(DiscoveredConfigWriter.widgetCount(result, options: DiscoveryOptions()) == widgets.count)
    }

    /// Issue 41 §1: the config discover writes has the status page on, on loopback, with
    /// how to reach it, as the package's starting config does.
    @Test func theWrittenConfigHasTheStatusPageOnOnLoopback() throws {
        let text = discoveredConfig(allSourcesMessages)
        let loaded = ConfigLoader.load(text: text, fileName: "b.yaml")
        let status = try #require(loaded.config?.status, "\(loaded.rendered())")
        #expect(status == StatusSettings())
        #expect(ListenAddress.parse(status.listen)?.isLoopback == true)
        #expect(text.contains("ssh -N -L 8787:127.0.0.1:8787 THIS-BOARD"))
        #expect(loaded.diagnostics.isEmpty, "\(loaded.rendered())")
    }

    @Test func aFewTogglesStayInOneWidget() {
        let text = discoveredConfig(allSourcesMessages)
        #expect(text.components(separatedBy: "  - slug: ").count == 2)
        #expect(!text.contains("Create each of them"))
    }

    @Test func aLabelOfHugeCharactersIsCutByBytesToo() {
        let heavy = "e" + String(repeating: "\u{301}", count: 5_000)
        let label = DiscoveredConfigWriter.shortLabel(String(repeating: heavy, count: 10))
        #expect(label.utf8.count <= DiscoveredConfigWriter.maxLabelBytes)
        #expect(label.hasSuffix("…"))
        #expect(DiscoveredConfigWriter.shortLabel("Hall") == "Hall")
    }
}
