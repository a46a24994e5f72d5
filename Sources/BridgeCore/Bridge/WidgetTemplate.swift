/// A widget's PATCH body with everything the config fixes already serialized:
/// per action, the text before its state (`{"id":…,"label":…,"kind":"toggle"`)
/// and after it (`,"color":…}` and the pass-through fields), so rendering a new
/// state is a few appends instead of building and serializing a JSON tree. The
/// bytes are exactly those of `ContentRenderer.bodyValue(...).serialized()`.
///
/// Rendering runs on every state message and every PATCH answer; building the
/// JSON tree was the largest share of the bridge's own CPU on a starved core
/// (BENCHMARKS.md, "Starved CPU").
public struct WidgetTemplate: Sendable {
    /// One action's fixed text around its state.
    struct Part: Sendable {
        var key: ActionKey
        var head: String
        var state: StateField
        var tail: String
    }

    /// The member written from the action's state.
    enum StateField: Sendable {
        case on(TileDevice)
        case active
        case none

        /// The text this member renders for `state`.
        func text(_ state: ActionState) -> String {
            switch self {
            case .on(let device): state.shownOn(device) ? #","on":true"# : #","on":false"#
            case .active: state.isActive ? #","active":true"# : #","active":false"#
            case .none: ""
            }
        }

        /// The longest text it can render, in bytes (`false` is one byte longer
        /// than `true`, and the bridge starts with every toggle off).
        var longestTextBytes: Int {
            var off = ActionState()
            off.isOn = false
            var on = ActionState()
            on.isOn = true
            on.isActive = true
            return max(text(off).utf8.count, text(on).utf8.count)
        }
    }

    static let prefix = #"{"content":{"template":"switchboard","actions":["#
    static let suffix = "]}}"

    let parts: [Part]
    /// The body's length apart from the states, to reserve its capacity once.
    let capacity: Int

    public init(widget: WidgetConfig) {
        parts = widget.actions.map { action in
            let head = JSONValue.object(ContentRenderer.headMembers(action)).serialized().dropLast()
            let tailMembers = ContentRenderer.tailMembers(action)
            let tail = tailMembers.isEmpty ? "}" : "," + JSONValue.object(tailMembers).serialized().dropFirst()
            let field: StateField = switch ContentRenderer.stateMembers(action, state: ActionState()).first?.key {
            case "on": .on(action.device)
            case "active": .active
            default: .none
            }
            return Part(key: ActionKey(slug: widget.slug, actionId: action.id), head: String(head), state: field, tail: tail)
        }
        capacity = parts.reduce(Self.prefix.utf8.count + Self.suffix.utf8.count) {
            $0 + $1.head.utf8.count + $1.tail.utf8.count + 16
        }
    }

    /// The PATCH body for `states`.
    public func body(states: [ActionKey: ActionState]) -> String {
        var body = ""
        body.reserveCapacity(capacity)
        body += Self.prefix
        for (index, part) in parts.enumerated() {
            if index > 0 { body += "," }
            body += part.head
            body += part.state.text(states[part.key] ?? ActionState())
            body += part.tail
        }
        body += Self.suffix
        return body
    }

    /// The largest body any states can render, in bytes: each action's state member
    /// at its longest. What the service's size limit (413) must hold.
    public var largestBodyBytes: Int {
        Self.framingBytes + parts.reduce(0) { $0 + $1.largestBytes } + max(parts.count - 1, 0)
    }

    /// The bytes of a body with no actions; each action adds its `largestActionBytes`
    /// and each one after the first a comma.
    public static var framingBytes: Int { prefix.utf8.count + suffix.utf8.count }

    /// The most bytes `action` adds to a body, whatever its state.
    public static func largestActionBytes(_ action: ActionConfig) -> Int {
        WidgetTemplate(widget: WidgetConfig(slug: "", actions: [action])).largestBodyBytes - framingBytes
    }
}

extension WidgetTemplate.Part {
    /// Its bytes with the state member at its longest.
    var largestBytes: Int { head.utf8.count + state.longestTextBytes + tail.utf8.count }
}
