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
}
