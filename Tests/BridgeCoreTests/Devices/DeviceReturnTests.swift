import Testing

@testable import BridgeCore

/// Issue 22 item 3: a device whose availability says online again is asked for its
/// state (it may have restarted with another one), at most once every
/// `StateQueryPacer.minSpacingMs`; the connect asks each device once.
@Suite("A device that comes back is asked its state")
struct DeviceReturnTests {
    static let query = (topic: "cmnd/fountain/State", payload: "")

    struct Step: CustomStringConvertible, Sendable {
        var afterMs: Int64
        var lwt: String
        var asks: Bool
        var description: String { "+\(afterMs) ms \(lwt) → \(asks ? "asks" : "silent")" }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var steps: [Step]
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(name: "the first word (retained, at connect) is not a return", steps: [Step(afterMs: 0, lwt: "Online", asks: false)]),
        Case(name: "offline then online, past the spacing: asked", steps: [
            Step(afterMs: 0, lwt: "Online", asks: false), Step(afterMs: 20_000, lwt: "Offline", asks: false),
            Step(afterMs: 1, lwt: "Online", asks: true),
        ]),
        Case(name: "online again while online (a quick restart): asked", steps: [
            Step(afterMs: 0, lwt: "Online", asks: false), Step(afterMs: 20_000, lwt: "Online", asks: true),
        ]),
        Case(name: "a return right after the connect's query: not asked twice", steps: [
            Step(afterMs: 0, lwt: "Online", asks: false), Step(afterMs: 10, lwt: "Offline", asks: false),
            Step(afterMs: 10, lwt: "Online", asks: false),
        ]),
        Case(name: "a flapping device: once per 10 s", steps: [
            Step(afterMs: 0, lwt: "Online", asks: false), Step(afterMs: 20_000, lwt: "Offline", asks: false),
            Step(afterMs: 0, lwt: "Online", asks: true), Step(afterMs: 100, lwt: "Offline", asks: false),
            Step(afterMs: 100, lwt: "Online", asks: false), Step(afterMs: 9_700, lwt: "Online", asks: false),
            Step(afterMs: 100, lwt: "Online", asks: true),
        ]),
    ])
    func availabilityOnlineAsks(_ testCase: Case) {
        var harness = BridgeHarness()
        let connect = harness.send(.mqttConnected)
        #expect(connect.mqttPublishes.filter { $0 == Self.query }.count == 1, "the connect asks once")
        for step in testCase.steps {
            harness.advance(ms: step.afterMs)
            let asked = harness.message("tele/fountain/LWT", step.lwt).mqttPublishes.contains { $0 == Self.query }
            #expect(asked == step.asks, "\(step)")
        }
    }

    @Test func aDisconnectedBridgeAsksNothing() {
        var harness = BridgeHarness()
        harness.send(.mqttConnected)
        harness.message("tele/fountain/LWT", "Online")
        harness.send(.mqttDisconnected)
        harness.advance(ms: 60_000)
        #expect(harness.message("tele/fountain/LWT", "Online").mqttPublishes.isEmpty)
    }

    /// Issue 22 item 10: two actions on one device (one query) asked it twice at connect.
    @Test func actionsSharingAQueryAskOnce() {
        var config = BridgeConfig.sample
        var twin = config.widgets[0].actions[1]
        twin.id = "fountain_twin"
        config.widgets[0].actions.append(twin)
        var harness = BridgeHarness(config: config)
        #expect(harness.send(.mqttConnected).mqttPublishes.filter { $0 == Self.query }.count == 1)
        harness.advance(ms: 20_000)
        harness.message("tele/fountain/LWT", "Offline")
        #expect(harness.message("tele/fountain/LWT", "Online").mqttPublishes.filter { $0 == Self.query }.count == 1)
    }

    /// A config of `actions` (YAML list items) in one widget, loaded as the daemon does.
    static func config(_ actions: [String]) throws -> BridgeConfig {
        let items = actions.map { action in
            action.split(separator: "\n").enumerated().map { ($0 == 0 ? "      - " : "        ") + $1 }.joined(separator: "\n")
        }
        let result = ConfigLoader.load(text: ConfigFixture.header + items.joined(separator: "\n") + "\n", fileName: "bridge.yaml")
        return try #require(result.config, "\(result.rendered())")
    }

    /// Issue 22 item 10: a Tasmota's POWER1 and POWER2 as two tiles asked `POWER1`
    /// and `POWER2`, at connect and again when it came back; now one `State`, whose
    /// one answer (every relay, on stat/T/RESULT) sets both tiles.
    @Test func aTasmotasRelaysAskStateOnceAndOneAnswerSetsEach() throws {
        let config = try Self.config(["id: one\nlabel: One\ntasmota: strip\nchannel: 1", "id: two\nlabel: Two\ntasmota: strip\nchannel: 2"])
        var harness = BridgeHarness(config: config)
        #expect(harness.send(.mqttConnected).mqttPublishes.map { "\($0.topic) '\($0.payload)'" } == ["cmnd/strip/State ''"])
        harness.message("stat/strip/RESULT", #"{"Time":"2026-12-01T16:00:00","Uptime":"0T00:10:00","POWER1":"ON","POWER2":"OFF"}"#)
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "one")]?.isOn == true)
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "two")]?.isOn == false)
        // With SetOption4 the answer comes on stat/T/STATE.
        harness.message("stat/strip/STATE", #"{"POWER1":"OFF","POWER2":"ON"}"#)
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "two")]?.isOn == true)
        harness.message("tele/strip/LWT", "Online")
        harness.advance(ms: 20_000)
        harness.message("tele/strip/LWT", "Offline")
        let back = harness.message("tele/strip/LWT", "Online").mqttPublishes
        #expect(back.map(\.topic) == ["cmnd/strip/State"], "its return asks once for both relays")
    }

    /// zigbee2mqtt: a two-gang switch's endpoints, one get of both reads.
    @Test func aZigbeeDevicesEndpointsAreOneGet() throws {
        let config = try Self.config(["id: l1\nlabel: Left\nzigbee2mqtt: wall\nchannel: l1",
                                      "id: l2\nlabel: Right\nzigbee2mqtt: wall\nchannel: l2"])
        var harness = BridgeHarness(config: config)
        let asked = harness.send(.mqttConnected).mqttPublishes.filter { $0.topic == "zigbee2mqtt/wall/get" }
        #expect(asked.map(\.payload) == [#"{"state_l1":"","state_l2":""}"#])
    }

    /// A reload that changes one relay asks the device once, both relays in it.
    @Test func aReloadAsksTheChangedDeviceOnce() throws {
        let before = try Self.config(["id: one\nlabel: One\ntasmota: strip\nchannel: 1", "id: two\nlabel: Two\ntasmota: strip\nchannel: 2"])
        let after = try Self.config(["id: one\nlabel: One\ntasmota: strip\nchannel: 1", "id: two\nlabel: Two\ntasmota: strip\nchannel: 3",
                                     "id: three\nlabel: Three\ntasmota: strip\nchannel: 4"])
        var harness = BridgeHarness(config: before)
        harness.send(.mqttConnected)
        #expect(harness.send(.configReloaded(after)).mqttPublishes.map(\.topic) == ["cmnd/strip/State"])
    }
}
