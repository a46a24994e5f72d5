import Testing
@testable import BridgeCore

/// The pre-serialized template renders exactly the bytes of the JSON-tree
/// renderer, for every shape of action and every state.
@Suite("WidgetTemplate: the same bytes as the JSON tree, cheaper")
struct WidgetTemplateTests {
    static let yaml = """
    aivi: { api: "http://127.0.0.1:9", token_env: T }
    mqtt: { host: 127.0.0.1 }
    state_dir: /tmp/unused
    widgets:
      - slug: all-shapes
        actions:
          - id: plain
            label: Plain toggle
            kind: toggle
            tasmota: plain
          - id: decorated
            label: "Quote \\" and back\\\\slash, tab\\tand é ✓"
            icon: lightbulb.fill
            color: yellow
            kind: toggle
            zigbee2mqtt: porch
            extra:
              subtitle: Hall
              gradient: [teal, blue]
          - id: scene
            label: Movie
            publish: { topic: home/scene/set, payload: movie }
            active_topic: home/scene/current
            active_value: movie
          - id: bare
            label: Bare button
            color: red
            publish: { topic: home/bell, payload: ring }
      - slug: empty-extras
        actions:
          - id: only
            label: Only
            kind: toggle
            shelly: only
    """

    static func state(isOn: Bool?, isAvailable: Bool?, isActive: Bool = false, isGatewayAvailable: Bool? = nil) -> ActionState {
        var state = ActionState()
        state.isOn = isOn
        state.isAvailable = isAvailable
        state.isActive = isActive
        state.isGatewayAvailable = isGatewayAvailable
        return state
    }

    static let states: [(String, ActionState)] = [
        ("unknown", ActionState()),
        ("on", state(isOn: true, isAvailable: true, isActive: true)),
        ("off", state(isOn: false, isAvailable: true)),
        ("on but unavailable", state(isOn: true, isAvailable: false)),
        ("on, gateway down", state(isOn: true, isAvailable: true, isGatewayAvailable: false)),
    ]

    @Test("every action shape, every state", arguments: states)
    func sameBytesAsTheJSONTree(_ name: String, _ state: ActionState) throws {
        let config = try #require(ConfigLoader.load(text: Self.yaml, fileName: "bridge.yaml").config)
        for widget in config.widgets {
            var states: [ActionKey: ActionState] = [:]
            for action in widget.actions { states[ActionKey(slug: widget.slug, actionId: action.id)] = state }
            let expected = ContentRenderer.bodyValue(widget: widget, states: states).serialized()
            #expect(WidgetTemplate(widget: widget).body(states: states) == expected, "\(name), \(widget.slug)")
            #expect(WidgetTemplate(widget: widget).body(states: [:]) == ContentRenderer.bodyValue(widget: widget, states: [:]).serialized())
        }
    }

    @Test func theBodyIsValidJSONWithTheState() throws {
        let config = try #require(ConfigLoader.load(text: Self.yaml, fileName: "bridge.yaml").config)
        let widget = config.widgets[0]
        let body = WidgetTemplate(widget: widget).body(states: [ActionKey(slug: widget.slug, actionId: "decorated"): Self.state(isOn: true, isAvailable: true)])
        let parsed = try JSONValue.parse(body)
        guard case .array(let actions)? = parsed["content"]?["actions"] else { Issue.record("no actions"); return }
        #expect(actions[1]["on"] == .bool(true))
        #expect(actions[1]["label"] == .string("Quote \" and back\\slash, tab\tand é ✓"))
        #expect(actions[0]["on"] == .bool(false))
        #expect(actions[2]["active"] == .bool(false))
        #expect(actions[3]["active"] == nil)
    }
}
