import Testing
@testable import BridgeCore

/// Issue 19 item 14: `check` rendered every toggle on, but `"on":false` is one byte
/// longer and the bridge starts with every toggle off, so 500 toggles within 500
/// bytes of the limit passed `check` and got 413 at start. The check now holds the
/// largest body any state can render.
@Suite struct ContentSizeCheckTests {
    static let toggleCount = 500

    static func config(labelLength: Int) -> String {
        var text = "aivi:\n  token_env: T\nmqtt:\n  host: 127.0.0.1\nwidgets:\n  - slug: home\n    actions:\n"
        let label = String(repeating: "L", count: labelLength)
        for index in 0..<toggleCount {
            text += "      - id: t\(1000 + index)\n        label: \(label)\n        kind: toggle\n"
                + "        optimistic: true\n        command_topic: t/\(index)/set\n"
        }
        return text
    }

    /// The widget `config(labelLength:)` describes, as the decoder builds it.
    static func widget(labelLength: Int) -> WidgetConfig {
        let label = String(repeating: "L", count: labelLength)
        let actions = (0..<toggleCount).map { index in
            ActionConfig(id: "t\(1000 + index)", label: label, kind: .toggle, command: ToggleCommand(topic: "t/\(index)/set"), optimistic: true)
        }
        return WidgetConfig(slug: "home", actions: actions)
    }

    static func allOnBytes(_ widget: WidgetConfig) -> Int {
        var states: [ActionKey: ActionState] = [:]
        for action in widget.actions {
            var state = ActionState()
            state.isOn = true
            states[ActionKey(slug: widget.slug, actionId: action.id)] = state
        }
        return ContentRenderer.patchBody(widget: widget, states: states).utf8.count
    }

    @Test func fiveHundredTogglesThatFitOnlyWhenOnAreRefusedOnTheWidgetsLine() throws {
        let limit = SwitchboardContentRules.maxPatchBodyBytes
        // Labels grow the all-on body by 500 bytes per character: pick the longest that fits when on.
        let labelLength = (limit - Self.allOnBytes(Self.widget(labelLength: 0))) / Self.toggleCount
        let widget = Self.widget(labelLength: labelLength)
        let short = try #require(ConfigLoader.load(text: Self.config(labelLength: 1), fileName: "b.yaml").config?.widgets.first)
        #expect(short.actions.map(\.id) == Self.widget(labelLength: 1).actions.map(\.id))
        let loaded = ConfigLoader.load(text: Self.config(labelLength: labelLength), fileName: "b.yaml")
        #expect(Self.allOnBytes(widget) <= limit)  // what the old check rendered
        let allOff = ContentRenderer.patchBody(widget: widget, states: [:]).utf8.count
        #expect(allOff > limit)  // what the bridge publishes first
        #expect(WidgetTemplate(widget: widget).largestBodyBytes == allOff)
        let error = try #require(loaded.errors.first, "\(loaded.rendered())")
        #expect(loaded.errors.count == 1)
        #expect(error.location == SourceLocation(line: 6, column: 5))
        #expect(error.message.contains("the content of widget 'home' can be \(allOff) bytes"), "\(error.message)")
        #expect(error.message.contains("the service refuses more than \(limit) (413)"), "\(error.message)")
    }

    @Test func theLargestBodyTakesEachTilesLongestState() {
        let toggle = ActionConfig(id: "t", label: "T", kind: .toggle, command: ToggleCommand(topic: "c"), optimistic: true)
        let button = ActionConfig(id: "b", label: "B", kind: .button, publishes: [MQTTMessageSpec(topic: "p", payload: "x")],
                                  activeSource: ActiveSource(topic: "a", value: "on"))
        let widget = WidgetConfig(slug: "w", actions: [toggle, button])
        var on = ActionState()
        on.isOn = true
        on.isActive = true
        let states = [ActionKey(slug: "w", actionId: "t"): on, ActionKey(slug: "w", actionId: "b"): on]
        let allOn = ContentRenderer.patchBody(widget: widget, states: states).utf8.count
        let allOff = ContentRenderer.patchBody(widget: widget, states: [:]).utf8.count
        #expect(allOff == allOn + 2)
        #expect(WidgetTemplate(widget: widget).largestBodyBytes == allOff)
        #expect(WidgetTemplate.framingBytes + WidgetTemplate.largestActionBytes(toggle) + 1
                + WidgetTemplate.largestActionBytes(button) == allOff)
    }
}
