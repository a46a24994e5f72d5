/// A widget's PATCH body with everything the config fixes already serialized:
/// per action, the text before its state (`{"id":…,"label":…,"kind":"toggle"`)
/// and after it (`,"color":…}` and the pass-through fields), so rendering a new
/// state is a few appends instead of building and serializing a JSON tree. The
/// bytes are exactly those of `ContentRenderer.bodyValue(...).serialized()`.
/// The fixed text is kept as UTF-8 bytes and a body is assembled in one byte
/// buffer, made a `String` once: String appends cost ~10x a byte copy.
///
/// Rendering runs on every state message and every PATCH answer; building the
/// JSON tree was the largest share of the bridge's own CPU on a starved core
/// (BENCHMARKS.md, "Starved CPU").
public struct WidgetTemplate: Sendable {
    /// One action's fixed text around its state.
    struct Part: Sendable {
        var key: ActionKey
        /// Where its state is in the bridge's `ActionStates`, nil when the
        /// template was made without one (then read by key).
        var slot: Int?
        var head: [UInt8]
        var state: StateField
        var tail: [UInt8]
    }

    /// The member written from the action's state.
    enum StateField: Sendable {
        case on(TileDevice)
        case active
        case none

        /// The bytes this member renders for `state`.
        func text(_ state: ActionState) -> [UInt8] {
            switch self {
            case .on(let device): state.shownOn(device) ? StateField.onTrue : StateField.onFalse
            case .active: state.isActive ? StateField.activeTrue : StateField.activeFalse
            case .none: []
            }
        }

        static let onTrue = Array(#","on":true"#.utf8)
        static let onFalse = Array(#","on":false"#.utf8)
        static let activeTrue = Array(#","active":true"#.utf8)
        static let activeFalse = Array(#","active":false"#.utf8)

        /// The longest text it can render, in bytes (`false` is one byte longer
        /// than `true`, and the bridge starts with every toggle off).
        var longestTextBytes: Int {
            var off = ActionState()
            off.isOn = false
            var on = ActionState()
            on.isOn = true
            on.isActive = true
            return max(text(off).count, text(on).count)
        }
    }

    static let prefix = Array(#"{"content":{"template":"switchboard","actions":["#.utf8)
    static let suffix = Array("]}}".utf8)

    let parts: [Part]
    /// The body's length apart from the states, to reserve its capacity once.
    let capacity: Int

    public init(widget: WidgetConfig) {
        self.init(widget: widget, slotsIn: nil)
    }

    /// A template that reads its actions' states from `states` by slot (the
    /// bridge's own table, whose slots a config fixes).
    init(widget: WidgetConfig, slotsIn states: ActionStates?) {
        parts = widget.actions.map { action in
            let head = JSONValue.object(ContentRenderer.headMembers(action)).serialized().dropLast()
            let tailMembers = ContentRenderer.tailMembers(action)
            let tail = tailMembers.isEmpty ? "}" : "," + JSONValue.object(tailMembers).serialized().dropFirst()
            let field: StateField = switch ContentRenderer.stateMembers(action, state: ActionState()).first?.key {
            case "on": .on(action.device)
            case "active": .active
            default: .none
            }
            let key = ActionKey(slug: widget.slug, actionId: action.id)
            return Part(key: key, slot: states?.slot(of: key), head: Array(head.utf8), state: field, tail: Array(tail.utf8))
        }
        capacity = parts.reduce(Self.framingBytes) { $0 + $1.largestBytes + 1 }
    }

    /// The PATCH body for `states`.
    public func body(states: [ActionKey: ActionState]) -> String {
        body { states[$0.key] }
    }

    /// The PATCH body for the bridge's `states`: read by slot when the template has them.
    public func body(states: ActionStates) -> String {
        body { part in part.slot.map { states[slot: $0] } ?? states[part.key] }
    }

    private func body(_ stateOf: (Part) -> ActionState?) -> String {
        var body: [UInt8] = []
        body.reserveCapacity(capacity)
        body.append(contentsOf: Self.prefix)
        for (index, part) in parts.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: part.head)
            body.append(contentsOf: part.state.text(stateOf(part) ?? ActionState()))
            body.append(contentsOf: part.tail)
        }
        body.append(contentsOf: Self.suffix)
        return String(decoding: body, as: UTF8.self)
    }

    /// The largest body any states can render, in bytes: each action's state member
    /// at its longest. What the service's size limit (413) must hold.
    public var largestBodyBytes: Int {
        Self.framingBytes + parts.reduce(0) { $0 + $1.largestBytes } + max(parts.count - 1, 0)
    }

    /// The bytes of a body with no actions; each action adds its `largestActionBytes`
    /// and each one after the first a comma.
    public static var framingBytes: Int { prefix.count + suffix.count }

    /// The most bytes `action` adds to a body, whatever its state.
    public static func largestActionBytes(_ action: ActionConfig) -> Int {
        WidgetTemplate(widget: WidgetConfig(slug: "", actions: [action])).largestBodyBytes - framingBytes
    }
}

extension WidgetTemplate.Part {
    /// Its bytes with the state member at its longest.
    var largestBytes: Int { head.count + state.longestTextBytes + tail.count }
}
