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
        case on
        case active
        case none
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
            case "on": .on
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
            switch part.state {
            case .on: body += (states[part.key] ?? ActionState()).publishedOn ? #","on":true"# : #","on":false"#
            case .active: body += (states[part.key] ?? ActionState()).isActive ? #","active":true"# : #","active":false"#
            case .none: break
            }
            body += part.tail
        }
        body += Self.suffix
        return body
    }
}
