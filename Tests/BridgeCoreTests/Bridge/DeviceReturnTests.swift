import Testing

@testable import BridgeCore

/// Issue 22 item 3: a device whose availability says online again is asked for its
/// state (it may have restarted with another one), at most once every
/// `StateQueryPacer.minSpacingMs`; the connect asks each device once.
@Suite("A device that comes back is asked its state")
struct DeviceReturnTests {
    static let query = (topic: "cmnd/fountain/POWER", payload: "")

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
}
