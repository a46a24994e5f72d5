import Testing
@testable import BridgeCore

/// The bridge's states by slot: config order, states kept across a rebuild,
/// and a template reading by slot renders the bytes a lookup by key does.
@Suite("ActionStates: one slot per action, read by slot when rendering")
struct ActionStatesTests {
    static let a = ActionKey(slug: "w", actionId: "a")
    static let b = ActionKey(slug: "w", actionId: "b")
    static let gone = ActionKey(slug: "old", actionId: "x")

    static func on(_ isOn: Bool) -> ActionState {
        var state = ActionState()
        state.isOn = isOn
        return state
    }

    @Test func slotsFollowTheOrderAndKeepStates() {
        var old = ActionStates()
        old[Self.gone] = Self.on(true)
        old[Self.b] = Self.on(true)
        let table = ActionStates(order: [Self.a, Self.b], keeping: old)
        #expect(table.slot(of: Self.a) == 0)
        #expect(table.slot(of: Self.b) == 1)
        #expect(table[slot: 1] == Self.on(true), "b's state kept")
        #expect(table[Self.a] == nil, "a new action has no state until the bridge gives it one")
        #expect(table[Self.gone] == Self.on(true), "a dropped action stays readable until forgotten")
        #expect(table.keys == [Self.b, Self.gone])
    }

    @Test func forgettingKeepsOtherSlots() {
        var table = ActionStates(order: [Self.a, Self.b], keeping: ActionStates())
        table[Self.a] = Self.on(false)
        table[Self.b] = Self.on(true)
        table[Self.a] = nil
        #expect(table[Self.a] == nil)
        #expect(table.slot(of: Self.b) == 1)
        #expect(table[slot: 1] == Self.on(true))
        #expect(table.values == [Self.on(true)])
        #expect(table[slot: 7] == nil, "a slot beyond the table holds nothing")
        #expect(table == ActionStates([Self.b: Self.on(true)]), "equal by key, whatever the slots")
    }

    @Test("a template reading by slot renders what one reading by key does", arguments: [false, true])
    func slotRenderIsKeyRender(_ isOn: Bool) throws {
        let config = try #require(ConfigLoader.load(text: WidgetTemplateTests.yaml, fileName: "bridge.yaml").config)
        var bridge = Bridge(config: config)
        let key = ActionKey(slug: "all-shapes", actionId: "decorated")
        bridge.states[key]?.isOn = isOn
        bridge.states[key]?.isAvailable = true
        for widget in config.widgets {
            let template = try #require(bridge.templates[widget.slug])
            #expect(template.parts.allSatisfy { $0.slot == bridge.states.slot(of: $0.key) && $0.slot != nil })
            #expect(template.body(states: bridge.states) == WidgetTemplate(widget: widget).body(states: bridge.states.dictionary))
        }
        #expect(bridge.renderedBody(slug: "all-shapes")?.contains(#""on":\#(isOn)"#) == true)
    }

    /// Two widgets of Tasmota toggles named `ids`, in that order.
    static func config(_ first: (slug: String, ids: [String]), _ second: (slug: String, ids: [String])) throws -> BridgeConfig {
        func widget(_ slug: String, _ ids: [String]) -> String {
            "  - slug: \(slug)\n    actions:\n" + ids.map { id in
                "      - { id: \(id), label: \(id), kind: toggle, tasmota: \(id) }\n"
            }.joined()
        }
        let yaml = """
        aivi: { api: "http://127.0.0.1:9", token_env: T }
        mqtt: { host: 127.0.0.1 }
        state_dir: /tmp/unused
        widgets:

        """ + widget(first.slug, first.ids) + widget(second.slug, second.ids)
        let result = ConfigLoader.load(text: yaml, fileName: "bridge.yaml")
        return try #require(result.config, "\(result.rendered())")
    }

    /// A wrong slot after a reload would put another action's state on a tile: every
    /// widget's body, read by slot, must equal the one read by key, through reloads
    /// that reverse, remove, add and swap actions and widgets.
    @Test func aSlotRenderStaysAKeyRenderThroughReloadsThatReorder() throws {
        let steps = [
            try Self.config(("w1", ["a", "b", "c"]), ("w2", ["d"])),
            try Self.config(("w1", ["c", "b", "a"]), ("w2", ["d"])),
            try Self.config(("w1", ["c", "a"]), ("w2", ["e", "d"])),
            try Self.config(("w2", ["d", "e"]), ("w1", ["a", "b", "c"])),
            try Self.config(("w1", ["a", "b", "c"]), ("w2", ["d"])),
        ]
        var harness = BridgeHarness(config: steps[0])
        harness.connectAndSettle(states: [])
        var isOn = false
        for (index, config) in steps.enumerated() {
            if index > 0 { _ = harness.send(.configReloaded(config)) }
            for id in ["a", "b", "c", "d", "e"] {
                isOn.toggle()
                _ = harness.message("stat/\(id)/POWER", isOn ? "ON" : "OFF")
                for widget in config.widgets {
                    let byKey = WidgetTemplate(widget: widget).body(states: harness.bridge.states.dictionary)
                    #expect(harness.bridge.renderedBody(slug: widget.slug) == byKey, "step \(index), after \(id), \(widget.slug)")
                }
            }
        }
        let onTiles = try #require(harness.bridge.renderedBody(slug: "w1"))
        #expect(onTiles.contains(#""on":true"#) && onTiles.contains(#""on":false"#), "the states differ by tile: \(onTiles)")
    }
}
