import BridgeCore
import Testing

@testable import BridgeDaemon

@Suite("Webhook Widget envelope validator")
struct StatusEnvelopeValidatorTests {
    /// The tap-target example of the protocol document, verbatim.
    static let documentExample = """
        {
          "v": 1,
          "url": "https://webhookwidget.com/docs/response/",
          "accessibility": "Open the response documentation",
          "view": {
            "type": "vstack", "align": "leading", "spacing": 4, "padding": 16, "bg": "#151A21",
            "children": [
              {"type": "text", "text": "TAP TARGET", "style": "caption2", "weight": "bold", "color": "#6D7786"},
              {"type": "text", "text": "One link", "style": "title2", "weight": "bold", "color": "white"},
              {"type": "text", "text": "The whole widget opens the url in the envelope.",
               "style": "footnote", "color": "#9AA4B2", "lines": 3},
              {"type": "spacer"},
              {"type": "text", "text": "webhookwidget.com", "style": "caption2", "color": "cyan"}
            ]
          }
        }
        """

    static let minimalView = #"{"type":"vstack","children":[]}"#

    @Test func theDocumentsOwnExamplesAreValid() throws {
        #expect(WebhookWidgetEnvelope.validate(try JSONValue.parse(Self.documentExample)) == [])
        let first = #"{"v":1,"refresh":900,"accessibility":"Bus 42 arriving in 6 minutes","url":"https://you.example/open","view":{"type":"vstack","children":[]}}"#
        #expect(WebhookWidgetEnvelope.validate(try JSONValue.parse(first)) == [])
    }

    @Test(arguments: [
        (true, true, 300, nil as String?),
        (false, true, 900, "https://example.com/"),
        (true, false, 86_400, "homeassistant://navigate"),
        (false, false, 20, "javascript:alert(1)"),
    ])
    func whatTheStatusViewProducesIsValid(mqtt: Bool, stream: Bool, refresh: Int, url: String?) throws {
        var status = StatusSettings()
        status.refreshSeconds = refresh
        for states in [StatusFixtures.typicalStates, [:]] {
            let snapshot = StatusFixtures.snapshot(config: StatusFixtures.config(status: status), states: states, mqtt: mqtt, stream: stream)
            let parsed = try JSONValue.parse(StatusView.body(for: snapshot, url: url))
            #expect(WebhookWidgetEnvelope.validate(parsed) == [])
            let emitted = WebhookWidgetEnvelope.effectiveRefreshSeconds(of: parsed)
            #expect(StatusView.refreshRangeSeconds.contains(emitted))
            #expect(parsed["refresh"] == .int(Int64(emitted)), "we emit within range, no clamping left to the app")
        }
    }

    /// One broken envelope per rule, with a word its problem must contain.
    @Test(arguments: [
        ("[]", "not a JSON object"),
        (#"{"view":\#(minimalView)}"#, "v is missing"),
        (#"{"v":"1","view":\#(minimalView)}"#, "v must be a number"),
        (#"{"v":2,"view":\#(minimalView)}"#, "above the known version"),
        (#"{"v":1.5,"view":\#(minimalView)}"#, "above the known version"),
        (#"{"v":0,"view":\#(minimalView)}"#, "not a known version"),
        (#"{"v":null,"view":\#(minimalView)}"#, "v must be a number"),
        (#"{"v":1,"refresh":"900","view":\#(minimalView)}"#, "refresh must be a number"),
        (#"{"v":1}"#, "needs either view or entries"),
        (#"{"v":1,"view":\#(minimalView),"entries":[]}"#, "not both"),
        (#"{"v":1,"entries":{}}"#, "entries must be an array"),
        (#"{"v":1,"entries":[]}"#, "entries is empty"),
        (#"{"v":1,"entries":[3]}"#, "entries[0] must be an object"),
        (#"{"v":1,"entries":[{"view":\#(minimalView)}]}"#, "entries[0].at is missing"),
        (#"{"v":1,"entries":[{"at":"tomorrow","view":\#(minimalView)}]}"#, "ISO-8601"),
        (#"{"v":1,"entries":[{"at":1780000000,"view":\#(minimalView)}]}"#, "ISO-8601"),
        (#"{"v":1,"entries":[{"at":"2026-11-29T21:00:00Z"}]}"#, "entries[0].view is missing"),
        (#"{"v":1,"entries":[{"at":"2026-11-29T21:00:00Z","view":\#(minimalView),"accessibility":7}]}"#, "entries[0].accessibility"),
        (#"{"v":1,"accessibility":["a"],"view":\#(minimalView)}"#, "accessibility must be a string"),
        (#"{"v":1,"url":42,"view":\#(minimalView)}"#, "url must be a string"),
        (#"{"v":1,"url":"webhookwidget://x","view":\#(minimalView)}"#, "webhookwidget: is refused"),
        (#"{"v":1,"url":"JavaScript:alert(1)","view":\#(minimalView)}"#, "javascript: is refused"),
        (#"{"v":1,"url":"data:text/plain,hi","view":\#(minimalView)}"#, "data: is refused"),
        (#"{"v":1,"url":"file:///etc/hosts","view":\#(minimalView)}"#, "file: is refused"),
        (#"{"v":1,"url":"/relative/path","view":\#(minimalView)}"#, "no scheme"),
        (#"{"v":1,"view":"hello"}"#, "view must be an object"),
        (#"{"v":1,"view":{"children":[]}}"#, "view.type is missing"),
        (#"{"v":1,"view":{"type":"hstack","children":[]}}"#, "not a known node type"),
        (#"{"v":1,"view":{"type":"image","url":"https://x/y.png"}}"#, "not a known node type"),
        (#"{"v":1,"view":{"type":"vstack"}}"#, "view.children must be an array"),
        (#"{"v":1,"view":{"type":"vstack","children":[{"type":"text"}]}}"#, "view.children[0].text must be a string"),
        (#"{"v":1,"view":{"type":"vstack","children":[{"type":"gauge"}]}}"#, "children[0].type gauge is not a known"),
        (#"{"v":1,"view":{"type":"vstack","align":"middle","children":[]}}"#, "view.align"),
        (#"{"v":1,"view":{"type":"vstack","spacing":-1,"children":[]}}"#, "view.spacing"),
        (#"{"v":1,"view":{"type":"vstack","padding":"16","children":[]}}"#, "view.padding"),
        (##"{"v":1,"view":{"type":"vstack","bg":"#12345","children":[]}}"##, "view.bg"),
        (#"{"v":1,"view":{"type":"text","text":"x","style":"huge"}}"#, "view.style"),
        (#"{"v":1,"view":{"type":"text","text":"x","weight":"extrabold"}}"#, "view.weight"),
        (#"{"v":1,"view":{"type":"text","text":"x","color":"rgb(1,2,3)"}}"#, "view.color"),
        (#"{"v":1,"view":{"type":"text","text":"x","lines":0}}"#, "view.lines"),
        (#"{"v":1,"view":{"type":"text","text":"x","lines":1.5}}"#, "view.lines"),
        (#"{"v":1,"view":{"type":"text","text":"x","children":[]}}"#, "view.children is not an attribute of text"),
        (#"{"v":1,"view":{"type":"spacer","text":"x"}}"#, "view.text is not an attribute of spacer"),
    ])
    func eachRuleFails(envelope: String, expectedProblem: String) throws {
        let problems = WebhookWidgetEnvelope.validate(try JSONValue.parse(envelope))
        #expect(problems.contains(where: { $0.contains(expectedProblem) }), "\(problems)")
    }

    @Test func validEntriesPass() throws {
        let envelope = #"""
            {"v":1,"accessibility":"Later","entries":[
              {"at":"2026-11-29T21:00:00Z","view":{"type":"text","text":"now"}},
              {"at":"2026-11-29T22:00:00.250+01:00","view":{"type":"spacer"},"accessibility":"Then"}
            ]}
            """#
        #expect(WebhookWidgetEnvelope.validate(try JSONValue.parse(envelope)) == [])
    }

    @Test(arguments: [
        (#"{"v":1,"view":{"type":"spacer"}}"#, 900),
        (#"{"v":1,"refresh":60,"view":{"type":"spacer"}}"#, 300),
        (#"{"v":1,"refresh":300,"view":{"type":"spacer"}}"#, 300),
        (#"{"v":1,"refresh":1800.5,"view":{"type":"spacer"}}"#, 1800),
        (#"{"v":1,"refresh":86400,"view":{"type":"spacer"}}"#, 86_400),
        (#"{"v":1,"refresh":1e12,"view":{"type":"spacer"}}"#, 86_400),
        (#"{"v":1,"refresh":-3,"view":{"type":"spacer"}}"#, 300),
    ])
    func refreshIsClampedTheWayTheAppDoes(envelope: String, expected: Int) throws {
        #expect(WebhookWidgetEnvelope.effectiveRefreshSeconds(of: try JSONValue.parse(envelope)) == expected)
    }

    @Test func everyProblemIsReportedNotJustTheFirst() throws {
        let envelope = #"{"refresh":"soon","url":"javascript:x","view":{"type":"hstack"}}"#
        #expect(WebhookWidgetEnvelope.validate(try JSONValue.parse(envelope)).count == 4)
    }

    @Test func deepTreesAreRefusedWithoutRecursingForever() {
        var node = JSONValue.object([JSONMember("type", .string("spacer"))])
        for _ in 0..<200 {
            node = .object([JSONMember("type", .string("vstack")), JSONMember("children", .array([node]))])
        }
        let envelope = JSONValue.object([JSONMember("v", .int(1)), JSONMember("view", node)])
        #expect(WebhookWidgetEnvelope.validate(envelope).contains(where: { $0.contains("nested deeper") }))
    }

    @Test(arguments: ["#fff", "#151A21", "#151A21CC", "white", "cyan"])
    func colorsOfTheDocumentAreAccepted(color: String) {
        #expect(WebhookWidgetNode.isColor(.string(color)))
    }
}

extension WebhookWidgetEnvelope {
    /// `refresh` when the payload names none, seconds.
    static let defaultRefreshSeconds = 900

    /// The refresh the app uses: the payload's, clamped to 300–86400, or 900.
    static func effectiveRefreshSeconds(of envelope: JSONValue) -> Int {
        guard let refresh = envelope["refresh"].flatMap(number) else { return defaultRefreshSeconds }
        let range = StatusView.refreshRangeSeconds
        let clamped = min(max(refresh, Double(range.lowerBound)), Double(range.upperBound))
        return Int(clamped)
    }
}
