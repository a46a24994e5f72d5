import Testing
@testable import BridgeCore

/// Issue 19 item 7: 3,500 actions on one topic, 10 messages of 60 KiB took
/// 10.2 s of CPU, the payload parsed once per listener. It is now read once per
/// message, each distinct field looked up once.
@Suite("A payload is read once per message, whatever the number of listeners")
struct ParseOncePerMessageTests {
    static let topic = "home/hall/state"

    /// `count` toggles on one topic, reading `fieldsUsed` distinct fields round-robin.
    static func config(actions count: Int, fieldsUsed: Int) -> BridgeConfig {
        var config = BridgeConfig()
        let actions = (0..<count).map { index in
            ActionConfig(id: "light_\(index)", label: "Light \(index)", kind: .toggle,
                         stateSources: [StateSource(topic: topic, field: ["f\(index % fieldsUsed)"])],
                         command: ToggleCommand(topic: "home/hall/\(index)/set"))
        }
        config.widgets = [WidgetConfig(slug: "hall", actions: actions)]
        return config
    }

    /// A JSON object of about 60 KiB: the listened fields on, then filler members.
    static func payload(fieldsUsed: Int) -> [UInt8] {
        var text = "{" + (0..<fieldsUsed).map { "\"f\($0)\":\"ON\"" }.joined(separator: ",")
        var filler = 0
        while text.utf8.count < 60 * 1024 { text += ",\"filler_\(filler)\":\(filler)"; filler += 1 }
        return Array((text + "}").utf8)
    }

    @Test(arguments: [(3_500, 1), (3_500, 7), (200, 200)])
    func bridgeParsesOncePerMessage(actions: Int, fieldsUsed: Int) {
        var harness = BridgeHarness(config: Self.config(actions: actions, fieldsUsed: fieldsUsed))
        let payload = Self.payload(fieldsUsed: fieldsUsed)
        for _ in 0..<10 { harness.send(.mqttMessage(topic: Self.topic, payload: payload)) }
        #expect(harness.bridge.payloadJSONParseCount == 10)
        #expect(harness.bridge.payloadFieldLookupCount == 10 * fieldsUsed)
        let on = harness.bridge.states.values.filter { $0.isOn == true }.count
        #expect(on == actions, "every listener still reads its field")
    }

    @Test func aPayloadThatIsNotJSONIsNeverParsed() {
        var harness = BridgeHarness(config: Self.config(actions: 100, fieldsUsed: 1))
        harness.message(Self.topic, "ON")
        #expect(harness.bridge.payloadJSONParseCount == 0)
        #expect(harness.bridge.states.values.allSatisfy { $0.isOn == true }, "a raw payload is the value")
    }

    @Test(arguments: [
        ("{\"f0\":\"OFF\",\"f0\":\"ON\"}", PayloadReader.Reading.value("OFF")),  // the first member of a name wins
        ("{\"other\":1}", .absent),
        ("{\"f0\":{\"nested\":1}}", .absent),
        ("{broken", .value("{broken")),
        ("  ON \n", .value("ON")),
    ])
    func readsAsBefore(payload: String, expected: PayloadReader.Reading) {
        let parsed = ParsedPayload(Array(payload.utf8), fields: [["f0"]])
        #expect(parsed.reading(["f0"]) == expected)
        #expect(parsed.jsonParseCount == (payload.hasPrefix("{") ? 1 : 0))
    }

    @Test func aNestedFieldIsReadThroughTheIndex() {
        let parsed = ParsedPayload(Array("{\"a\":{\"b\":{\"c\":true}},\"x\":2}".utf8), fields: [["a", "b", "c"], ["x"], ["a", "q"]])
        #expect(parsed.reading(["a", "b", "c"]) == .value("true"))
        #expect(parsed.reading(["x"]) == .value("2"))
        #expect(parsed.reading(["a", "q"]) == .absent)
        #expect(parsed.reading(nil) == .value("{\"a\":{\"b\":{\"c\":true}},\"x\":2}"))
        #expect(parsed.fieldLookupCount == 3)
    }

    @Test func watchReadsOncePerMessageToo() {
        var session = WatchSession(config: Self.config(actions: 3_500, fieldsUsed: 1))
        let events = session.message(topic: Self.topic, payload: Self.payload(fieldsUsed: 1), elapsedMs: 0)
        #expect(events.count == 3_500)
        #expect(events.allSatisfy { $0.verdict == .on })
    }
}
