import Testing
@testable import BridgeCore

@Suite("Decision 1: state per action from its topics")
struct StateMappingTests {
    struct Case: Sendable, CustomStringConvertible {
        var topic: String
        var payload: String
        var action: String
        var isOn: Bool?
        var isAvailable: Bool?
        var warns: Bool
        var description: String { "\(topic) \(payload)" }
    }

    static let cases: [Case] = [
        Case(topic: "home/fan/state", payload: "{\"power\":\"ON\"}", action: "fan", isOn: true, isAvailable: nil, warns: false),
        Case(topic: "home/fan/state", payload: "{\"power\":\"off\",\"speed\":3}", action: "fan", isOn: false, isAvailable: nil, warns: false),
        Case(topic: "home/fan/state", payload: " On ", action: "fan", isOn: true, isAvailable: nil, warns: false),
        Case(topic: "home/fan/state", payload: "{\"speed\":3}", action: "fan", isOn: nil, isAvailable: nil, warns: false),
        Case(topic: "home/fan/state", payload: "{\"power\":\"maybe\"}", action: "fan", isOn: nil, isAvailable: nil, warns: true),
        Case(topic: "home/fan/state", payload: "{broken", action: "fan", isOn: nil, isAvailable: nil, warns: true),
        Case(topic: "home/fan/online", payload: "false", action: "fan", isOn: nil, isAvailable: false, warns: false),
        Case(topic: "home/fan/online", payload: "TRUE", action: "fan", isOn: nil, isAvailable: true, warns: false),
        Case(topic: "home/fan/online", payload: "maybe", action: "fan", isOn: nil, isAvailable: nil, warns: true),
        Case(topic: "stat/fountain/POWER", payload: "ON", action: "fountain", isOn: true, isAvailable: nil, warns: false),
        Case(topic: "stat/fountain/RESULT", payload: "{\"POWER\":\"OFF\"}", action: "fountain", isOn: false, isAvailable: nil, warns: false),
        Case(topic: "stat/fountain/RESULT", payload: "{\"Dimmer\":40}", action: "fountain", isOn: nil, isAvailable: nil, warns: false),
        Case(topic: "tele/fountain/LWT", payload: "Offline", action: "fountain", isOn: nil, isAvailable: false, warns: false),
    ]

    @Test(arguments: cases)
    func readsPayload(_ testCase: Case) {
        var harness = BridgeHarness()
        let effects = harness.message(testCase.topic, testCase.payload)
        let state = harness.bridge.states[ActionKey(slug: "living-room", actionId: testCase.action)]
        #expect(state?.isOn == testCase.isOn)
        #expect(state?.isAvailable == testCase.isAvailable)
        let warned = effects.contains { if case .log(.warning, _) = $0 { return true } else { return false } }
        #expect(warned == testCase.warns)
    }

    @Test func unreadablePayloadIsLoggedOnceUntilTheTopicRecovers() {
        var harness = BridgeHarness()
        func warnings(_ effects: [BridgeEffect]) -> Int {
            effects.filter { if case .log(.warning, _) = $0 { return true } else { return false } }.count
        }
        #expect(warnings(harness.message("home/fan/state", "garbage")) == 1)
        #expect(warnings(harness.message("home/fan/state", "garbage")) == 0)
        #expect(warnings(harness.message("home/fan/state", "ON")) == 0)
        #expect(warnings(harness.message("home/fan/state", "garbage")) == 1)
    }

    @Test(arguments: [("online", true), ("offline", false), ("0", false), ("dead", false)])
    func withoutAnUnavailableValueAnythingElseMeansUnreachable(payload: String, isAvailable: Bool) {
        var config = BridgeConfig.sample
        config.widgets[0].actions[0].availability = AvailabilitySource(topic: "home/fan/online", availableValue: "online")
        var harness = BridgeHarness(config: config)
        let effects = harness.message("home/fan/online", payload)
        #expect(harness.bridge.states[ActionKey(slug: "living-room", actionId: "fan")]?.isAvailable == isAvailable)
        #expect(!effects.contains { if case .log(.warning, _) = $0 { true } else { false } })
    }

    @Test func buttonActiveFollowsItsTopic() {
        var harness = BridgeHarness()
        harness.message("home/scene/current", "movie")
        #expect(harness.bridge.states[ActionKey(slug: "living-room", actionId: "movie")]?.isActive == true)
        harness.message("home/scene/current", "evening")
        #expect(harness.bridge.states[ActionKey(slug: "living-room", actionId: "movie")]?.isActive == false)
    }

    @Test func unrelatedTopicsAreIgnoredSilently() {
        var harness = BridgeHarness()
        #expect(harness.message("some/other/topic", "x").isEmpty)
    }
}

@Suite("Rendering: the whole content, deterministically")
struct RenderingTests {
    @Test func rendersEveryActionInOrder() {
        var harness = BridgeHarness()
        harness.message("home/fan/state", "{\"power\":\"ON\"}")
        harness.message("home/scene/current", "movie")
        let body = harness.bridge.renderedBody(slug: "living-room")
        #expect(body == """
        {"content":{"template":"switchboard","actions":[\
        {"id":"fan","label":"Fan","kind":"toggle","on":true},\
        {"id":"fountain","label":"Fountain","kind":"toggle","on":false,"color":"cyan"},\
        {"id":"movie","label":"Movie","icon":"tv.fill","kind":"button","active":true,"subtitle":"Dim the lights"},\
        {"id":"feed_cat","label":"Feed the cat","kind":"button"}]}}
        """)
    }

    @Test(arguments: [
        (Bool?.none, Bool?.none, false),
        (true, nil, true),
        (true, true, true),
        (true, false, false),
        (false, true, false),
    ])
    func toggleIsOnOnlyWhenKnownOnAndAvailable(isOn: Bool?, isAvailable: Bool?, published: Bool) {
        var state = ActionState()
        state.isOn = isOn
        state.isAvailable = isAvailable
        #expect(state.publishedOn == published)
    }

    @Test func passthroughNeverOverridesTheBridgesOwnFields() {
        let action = ActionConfig(
            id: "x", label: "X", kind: .toggle, optimistic: true,
            passthrough: [JSONMember("on", .bool(true)), JSONMember("gradient", .array([.string("#000"), .string("#fff")]))])
        let object = ContentRenderer.actionObject(action, state: ActionState())
        #expect(object.serialized() == "{\"id\":\"x\",\"label\":\"X\",\"kind\":\"toggle\",\"on\":false,\"gradient\":[\"#000\",\"#fff\"]}")
    }
}
