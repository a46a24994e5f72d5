import Testing

@testable import BridgeCore

/// Start-up order: the event stream opens once MQTT is connected, or after a bounded
/// wait without it, and only once.
@Suite("Event stream opening at start")
struct EventStreamOpeningTests {
    enum Step: CustomStringConvertible {
        case start, mqttUp, mqttDown, waitExpires
        var event: BridgeInputEvent {
            switch self {
            case .start: .started
            case .mqttUp: .mqttConnected
            case .mqttDown: .mqttDisconnected
            case .waitExpires: .timerFired(.eventStreamOpenWait)
            }
        }
        var description: String { "\(event)" }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var steps: [Step]
        /// After which step (index) the stream is opened, nil when never.
        var opensAfterStep: Int?
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(name: "start, then MQTT: opens on the connect", steps: [.start, .mqttUp], opensAfterStep: 1),
        Case(name: "start, MQTT never: opens when the wait expires", steps: [.start, .waitExpires], opensAfterStep: 1),
        Case(name: "MQTT before start: opens at start", steps: [.mqttUp, .start], opensAfterStep: 1),
        Case(name: "opened on the connect: the wait's end changes nothing", steps: [.start, .mqttUp, .waitExpires],
             opensAfterStep: 1),
        Case(name: "opened after the wait: a later connect changes nothing", steps: [.start, .waitExpires, .mqttUp],
             opensAfterStep: 1),
        Case(name: "reconnects open nothing more", steps: [.start, .mqttUp, .mqttDown, .mqttUp], opensAfterStep: 1),
        Case(name: "no start (a core driven without start-up): never", steps: [.mqttUp, .waitExpires], opensAfterStep: nil),
        Case(name: "a second start is ignored", steps: [.start, .mqttUp, .start], opensAfterStep: 1),
    ])
    func opensOnce(_ testCase: Case) {
        var harness = BridgeHarness()
        var opened: [Int] = []
        for (index, step) in testCase.steps.enumerated() {
            let effects = harness.send(step.event)
            opened += Array(repeating: index, count: effects.filter { $0 == .openEventStream }.count)
        }
        #expect(opened == (testCase.opensAfterStep.map { [$0] } ?? []), "opened after steps \(opened)")
    }

    @Test func startWithoutMQTTStartsTheBoundedWait() {
        var harness = BridgeHarness()
        let effects = harness.send(.started)
        #expect(effects == [.startTimer(.eventStreamOpenWait, afterMs: Bridge.eventStreamOpenWaitMs)])
        #expect(Bridge.eventStreamOpenWaitMs == 10_000)
    }

    @Test func theConnectCancelsTheWait() {
        var harness = BridgeHarness()
        harness.send(.started)
        let effects = harness.send(.mqttConnected)
        let cancel = effects.firstIndex(of: .cancelTimer(.eventStreamOpenWait))
        let open = effects.firstIndex(of: .openEventStream)
        #expect(cancel != nil && open != nil)
        // Subscriptions and state queries go out before the stream opens.
        let subscribe = effects.firstIndex { if case .subscribe = $0 { true } else { false } }
        #expect(subscribe.map { $0 < (open ?? 0) } ?? false)
    }

    @Test func openingWithoutMQTTSaysSoOnce() {
        var harness = BridgeHarness()
        harness.send(.started)
        let effects = harness.send(.timerFired(.eventStreamOpenWait))
        let warnings = effects.compactMap { effect -> String? in
            if case .log(.warning, let message) = effect { message.text } else { nil }
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("opening the event stream anyway") == true)
    }

    /// The point of the order: a press replayed when the stream opens is carried out.
    @Test func aPressReplayedWhenTheStreamOpensIsCarriedOut() {
        var harness = BridgeHarness()
        harness.send(.started)
        harness.advance(ms: 3_000)
        #expect(harness.send(.mqttConnected).contains(.openEventStream))
        harness.send(.eventStreamConnected)
        let effects = harness.press("fan", id: "evt_replayed", ageMs: 3_500)
        #expect(effects.contains { if case .publishMQTT = $0 { true } else { false } }, "\(effects)")
        #expect(!effects.contains(.observe(.pressDropped(eventId: "evt_replayed", reason: .mqttDisconnected))))
    }

    /// Issue 22 item 2: with the broker down since start nothing had settled, so the
    /// answer owed to a refused press was never published (Turning on → No response).
    @Test(arguments: [("fan", "toggle", true as Bool?), ("movie", "button", nil)])
    func aPressWhileMQTTHasNeverConnectedIsAnswered(_ action: String, _ kind: String, _ value: Bool?) {
        var harness = BridgeHarness()
        harness.send(.started)
        harness.send(.timerFired(.eventStreamOpenWait))
        harness.send(.eventStreamConnected)
        let effects = harness.press(action, kind: kind, value: value, id: "evt-early")
        let answers = effects.patches.filter { $0.slug == "living-room" && $0.answersPress }
        #expect(answers.count == 1, "\(effects)")
        #expect(!effects.contains { if case .publishMQTT = $0 { true } else { false } })
        // What the service gets is the true state: nothing heard, so nothing on.
        #expect(answers.first?.body.contains(#""on":true"#) == false)
        // Unasked, nothing is published before the states settle.
        harness.ackAll(effects)
        #expect(harness.message("home/fan/state", #"{"power":"ON"}"#).patches.isEmpty)
    }
}
