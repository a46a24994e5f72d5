import BridgeCore
import Testing

@testable import BridgeDaemon

@Suite("Status view (Webhook Widget envelope)")
struct StatusViewTests {
    @Test func typicalHouseReadsAsASentence() {
        let snapshot = StatusFixtures.snapshot(states: StatusFixtures.typicalStates)
        #expect(StatusView.accessibilitySentence(for: snapshot)
            == "Porch light on, fountain off, fan unavailable, sprinkler active; bridge connected")
    }

    @Test(arguments: [
        (true, true, "bridge connected"),
        (false, true, "MQTT disconnected"),
        (true, false, "event stream disconnected"),
        (false, false, "MQTT and event stream disconnected"),
    ])
    func connectionPhrase(mqtt: Bool, stream: Bool, expected: String) {
        let snapshot = StatusFixtures.snapshot(states: StatusFixtures.typicalStates, mqtt: mqtt, stream: stream)
        #expect(StatusView.connectionPhrase(snapshot) == expected)
        #expect(StatusView.accessibilitySentence(for: snapshot).hasSuffix("; " + expected))
    }

    @Test(arguments: [
        (ActionKind.toggle, false, StatusFixtures.state(), ActionDisplayState.unknown),
        (.toggle, false, StatusFixtures.state(on: true), .on),
        (.toggle, false, StatusFixtures.state(on: false), .off),
        (.toggle, false, StatusFixtures.state(on: true, available: false), .unavailable),
        (.toggle, false, StatusFixtures.state(available: false), .unavailable),
        (.toggle, false, StatusFixtures.state(on: false, available: true), .off),
        (.button, true, StatusFixtures.state(active: true), .active),
        (.button, true, StatusFixtures.state(), .idle),
        (.button, true, StatusFixtures.state(available: false, active: true), .unavailable),
        (.button, false, StatusFixtures.state(), .ready),
    ])
    func displayState(kind: ActionKind, hasActiveSource: Bool, state: ActionState, expected: ActionDisplayState) {
        let action = switch (kind, hasActiveSource) {
        case (.toggle, _): StatusFixtures.toggle("x", "X")
        case (.button, true): StatusFixtures.activeButton("x", "X")
        case (.button, false): StatusFixtures.plainButton("x", "X")
        }
        #expect(ActionDisplayState.of(action, state: state) == expected)
    }

    @Test func unknownStateWhenTheBridgeHasHeardNothing() {
        let snapshot = StatusFixtures.snapshot(states: [:])
        #expect(StatusView.accessibilitySentence(for: snapshot)
            == "Porch light unknown, fountain unknown, fan unknown, sprinkler idle; bridge connected")
    }

    @Test(arguments: [
        ("Porch Light", "porch light"),
        ("TV", "TV"),
        ("Living room TV", "living room TV"),
        ("iPad charger", "iPad charger"),
        ("LED strip", "LED strip"),
        ("fan", "fan"),
        ("Garage Door 2", "garage door 2"),
    ])
    func labelsAreLoweredMidSentence(label: String, expected: String) {
        #expect(SpokenText.midSentence(label) == expected)
    }

    @Test func firstLabelStartsTheSentenceInUpperCase() {
        let config = StatusFixtures.config(actions: [StatusFixtures.toggle("a", "kettle"), StatusFixtures.toggle("b", "Lamp")])
        let snapshot = StatusFixtures.snapshot(config: config, states: ["a": StatusFixtures.state(on: true)])
        #expect(StatusView.accessibilitySentence(for: snapshot) == "Kettle on, lamp unknown; bridge connected")
    }

    @Test func onlyPlainButtonsLeaveJustTheConnection() {
        let config = StatusFixtures.config(actions: [StatusFixtures.plainButton("bell", "Doorbell")])
        #expect(StatusView.accessibilitySentence(for: StatusFixtures.snapshot(config: config)) == "Bridge connected")
        let down = StatusFixtures.snapshot(config: config, mqtt: false)
        #expect(StatusView.accessibilitySentence(for: down) == "MQTT disconnected")
    }

    @Test(arguments: [
        (nil as Int?, 300),
        (1, 300),
        (299, 300),
        (300, 300),
        (900, 900),
        (86_400, 86_400),
        (86_401, 86_400),
        (Int.max, 86_400),
        (-5, 300),
    ])
    func refreshIsClampedIntoTheProtocolRange(configured: Int?, expected: Int) {
        var settings: StatusSettings?
        if let configured {
            var status = StatusSettings()
            status.refreshSeconds = configured
            settings = status
        }
        let snapshot = StatusFixtures.snapshot(config: StatusFixtures.config(status: settings))
        #expect(StatusView.envelope(for: snapshot)["refresh"] == .int(Int64(expected)))
    }

    @Test func envelopeHasTheProtocolShape() throws {
        let snapshot = StatusFixtures.snapshot(states: StatusFixtures.typicalStates)
        let envelope = StatusView.envelope(for: snapshot)
        #expect(envelope.objectMembers?.map(\.key) == ["v", "refresh", "accessibility", "view"])
        #expect(envelope["v"] == .int(1))
        let view = try #require(envelope["view"])
        #expect(view["type"] == .string("vstack"))
        guard case .array(let children)? = view["children"] else {
            Issue.record("view has no children")
            return
        }
        let texts = children.compactMap { $0["text"]?.stringValue }
        #expect(texts == [
            "Switchboard",
            "Porch light · On", "Fountain · Off", "Fan · Unavailable", "Doorbell · Ready", "Sprinkler · Active",
            "Bridge connected",
        ])
        #expect(children.contains(where: { $0["type"] == .string("spacer") }))
    }

    @Test func rowsAreColoredByState() throws {
        let snapshot = StatusFixtures.snapshot(states: StatusFixtures.typicalStates)
        let children = try #require(StatusView.envelope(for: snapshot)["view"]?["children"])
        guard case .array(let rows) = children else { return }
        #expect(rows[1]["color"] == .string(ActionDisplayState.on.rowColor))
        #expect(rows[3]["color"] == .string(ActionDisplayState.unavailable.rowColor))
    }

    @Test func serializationIsDeterministicAndRoundTrips() throws {
        let snapshot = StatusFixtures.snapshot(states: StatusFixtures.typicalStates, mqtt: false)
        let first = StatusView.body(for: snapshot, url: "https://example.com/open")
        let second = StatusView.body(for: snapshot, url: "https://example.com/open")
        #expect(first == second)
        let parsed = try JSONValue.parse(first)
        #expect(parsed == StatusView.envelope(for: snapshot, url: "https://example.com/open"))
        #expect(first.hasPrefix("{\"v\":1,\"refresh\":300,\"accessibility\":\"Porch light on,"))
    }

    @Test(arguments: [
        ("https://example.com/open", true),
        ("homeassistant://navigate/lovelace", true),
        ("webhookwidget://settings", false),
        ("WebhookWidget:open", false),
        ("javascript:alert(1)", false),
        (" JavaScript:alert(1)", false),
        ("java\tscript:alert(1)", false),
        ("data:text/html,hi", false),
        ("file:///etc/passwd", false),
        ("no scheme here", false),
        ("", false),
    ])
    func urlOnlyWhenAllowed(url: String, included: Bool) {
        let envelope = StatusView.envelope(for: StatusFixtures.snapshot(), url: url)
        #expect((envelope["url"] != nil) == included)
        #expect(WebhookWidgetURL.isAllowed(url) == included)
    }

    @Test func noURLUnlessConfigured() {
        #expect(StatusView.envelope(for: StatusFixtures.snapshot())["url"] == nil)
    }

    @Test func manyActionsAreCappedInTheView() throws {
        let actions = (0..<60).map { StatusFixtures.toggle("t\($0)", "Light \($0)") }
        let snapshot = StatusFixtures.snapshot(config: StatusFixtures.config(actions: actions))
        let envelope = StatusView.envelope(for: snapshot)
        guard case .array(let children)? = envelope["view"]?["children"] else {
            Issue.record("view has no children")
            return
        }
        #expect(children.count == 1 + StatusView.maximumActionRows + 1 + 2)
        #expect(children.contains(where: { $0["text"] == .string("and 36 more") }))
        #expect(WebhookWidgetEnvelope.validate(envelope) == [])
    }

    @Test func noActionsSaysSo() {
        let snapshot = StatusFixtures.snapshot(config: StatusFixtures.config(actions: []))
        let body = StatusView.body(for: snapshot)
        #expect(body.contains("No actions configured"))
        #expect(WebhookWidgetEnvelope.validate(StatusView.envelope(for: snapshot)) == [])
    }

    @Test func labelsWithQuotesAreEscaped() throws {
        let config = StatusFixtures.config(actions: [StatusFixtures.toggle("q", "The \"big\" lamp\n")])
        let body = StatusView.body(for: StatusFixtures.snapshot(config: config))
        let parsed = try JSONValue.parse(body)
        #expect(WebhookWidgetEnvelope.validate(parsed) == [])
        #expect(body.contains("The \\\"big\\\" lamp\\n"))
    }
}
