import Testing
@testable import BridgeCore

/// The decisions of `watch`, without I/O: what it listens to, what it sends,
/// what each message means, and the table at the end.
@Suite("watch: its translation of messages")
struct WatchSessionTests {
    static func session() throws -> WatchSession {
        let yaml = ConfigFixture.withAction("id: plug\nlabel: Plug\ntasmota: plug") + "      - id: porch\n        label: Porch\n        zigbee2mqtt: porch\n"
        return WatchSession(config: try #require(ConfigLoader.load(text: yaml, fileName: "bridge.yaml").config))
    }

    struct Case: Sendable, CustomStringConvertible {
        var topic: String
        var payload: String
        var lines: [String]
        var description: String { "\(topic) \(payload)" }
    }

    static let cases: [Case] = [
        Case(topic: "stat/plug/RESULT", payload: RealPayloads.tasmotaResultPower1, lines: ["home/plug state on"]),
        Case(topic: "stat/plug/RESULT", payload: RealPayloads.tasmotaResultWithoutPower,
             lines: ["home/plug state no state in it (no field 'POWER'; fields present: Dimmer)"]),
        Case(topic: "tele/plug/LWT", payload: "Offline", lines: ["home/plug availability unavailable"]),
        Case(topic: "zigbee2mqtt/bridge/state", payload: RealPayloads.z2mBridgeOfflineLegacy, lines: ["home/porch gateway unavailable"]),
        Case(topic: "zigbee2mqtt/porch/availability", payload: "", lines: [
            "home/porch availability availability unknown (empty message: the retained availability was cleared)",
        ]),
        Case(topic: "zigbee2mqtt/porch", payload: "{broken", lines: [
            "home/porch state not understood (not valid JSON; expected field 'state' with 'ON' or 'OFF')",
        ]),
        Case(topic: "unrelated/topic", payload: "ON", lines: []),
        // Issue 22 item 10: a blink is read (not "not understood"), and the answer to State with SetOption4.
        Case(topic: "stat/plug/RESULT", payload: RealPayloads.tasmotaBlinkOn, lines: ["home/plug state blinking"]),
        Case(topic: "stat/plug/STATE", payload: RealPayloads.tasmotaStatState, lines: ["home/plug state off"]),
    ]

    @Test(arguments: cases)
    func explainsAMessage(_ testCase: Case) throws {
        var session = try Self.session()
        let events = session.message(topic: testCase.topic, payload: Array(testCase.payload.utf8), elapsedMs: 1_234)
        let lines = events.map { "\($0.action) \($0.role) \($0.verdict.word)" + ($0.verdict.detail.map { " (\($0))" } ?? "") }
        #expect(lines == testCase.lines)
    }

    /// Issue 22 item 10: a blink leaves the relay's state as it was, and is no problem.
    @Test func aBlinkKeepsTheState() throws {
        var session = try Self.session()
        _ = session.message(topic: "stat/plug/POWER", payload: Array("ON".utf8), elapsedMs: 1)
        _ = session.message(topic: "stat/plug/RESULT", payload: Array(RealPayloads.tasmotaBlinkOn.utf8), elapsedMs: 2)
        #expect(session.records[0].stateWord == "on, blinking")
        #expect(session.records[0].lastProblem == nil)
    }

    @Test func tableSaysStateCountAndNeverHeardFrom() throws {
        var session = try Self.session()
        _ = session.message(topic: "stat/plug/POWER", payload: Array("ON".utf8), elapsedMs: 1)
        _ = session.message(topic: "tele/plug/LWT", payload: Array("Offline".utf8), elapsedMs: 2)
        #expect(WatchFormat.humanSummary(session.records) == [
            "action      state        messages",
            "home/plug   unavailable  2         a press sends nothing now: the device is offline (answered with its last state)",
            "home/porch  unknown      0         never heard from",
        ])
        #expect(WatchFormat.jsonSummary(session.records[0])
            == #"{"type":"summary","widget":"home","action":"plug","state":"unavailable","messages":2,"never_heard_from":false,"last_problem":null,"near_misses":[],"press":"a press sends nothing now: the device is offline (answered with its last state)"}"#)
    }

    @Test func sendsOnlyStateQueries() throws {
        let session = try Self.session()
        #expect(session.stateQueries.map(\.topic) == ["cmnd/plug/State", "zigbee2mqtt/porch/get"])
        #expect(session.subscribedTopics.contains("zigbee2mqtt/bridge/state"))
        #expect(WatchFormat.human(WatchEvent(elapsedMs: 61_005, action: ActionKey(slug: "home", actionId: "plug"), role: "state",
                                             topic: "stat/plug/POWER", payloadExcerpt: "ON", verdict: .on))
            == "+61.005s home/plug state stat/plug/POWER 'ON' -> on")
    }
}
