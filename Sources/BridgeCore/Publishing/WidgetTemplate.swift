/// A widget's PATCH body with everything the config fixes already serialized:
/// per action, the text before its state (`{"id":…,"label":…,"kind":"toggle"`)
/// and after it (`,"color":…}` and the pass-through fields), so rendering a new
/// state is a few appends instead of building and serializing a JSON tree. The
/// bytes are exactly those of `ContentRenderer.bodyValue(...).serialized()`.
/// Each action's object is kept whole as UTF-8 bytes, once with its state
/// member true and once false, all of them in one array (`objects`), so a body
/// is one byte copy per action into one buffer, made a `String` once (String
/// appends cost ~10x a byte copy), touching no action's own storage.
///
/// Rendering runs on every state message and every PATCH answer; building the
/// JSON tree was the largest share of the bridge's own CPU on a starved core
/// (BENCHMARKS.md, "Starved CPU").
public struct WidgetTemplate: Sendable {
    /// One action's object, rendered for either value of its state member.
    struct Part: Sendable {
        var key: ActionKey
        /// Where its state is in the bridge's `ActionStates`, nil when the
        /// template was made without one (then read by key).
        var slot: Int?
        var state: StateField
        /// Where in `objects` the object's bytes are with the state member
        /// true, and false (the same bytes when it has no state member).
        var whenTrue: Range<Int>
        var whenFalse: Range<Int>

        /// Where its bytes are when its state member is `isTrue`.
        func bytes(_ isTrue: Bool) -> Range<Int> { isTrue ? whenTrue : whenFalse }
    }

    /// What each action's state member shows, in the template's order: all a
    /// body depends on besides the config, so equal `Shown`s of one template
    /// render the same bytes.
    public struct Shown: Sendable, Equatable {
        fileprivate var isTrue: [Bool]
    }

    /// The member written from the action's state.
    enum StateField: Sendable {
        case on(TileDevice)
        case active
        case none

        /// Whether the member is true for `state` (false when there is none).
        func isTrue(_ state: ActionState) -> Bool {
            switch self {
            case .on(let device): state.shownOn(device)
            case .active: state.isActive
            case .none: false
            }
        }

        /// The member's text for `value`.
        func text(_ value: Bool) -> String {
            switch self {
            case .on: value ? #","on":true"# : #","on":false"#
            case .active: value ? #","active":true"# : #","active":false"#
            case .none: ""
            }
        }
    }

    static let prefix = Array(#"{"content":{"template":"switchboard","actions":["#.utf8)
    static let suffix = Array("]}}".utf8)

    let parts: [Part]
    /// Every action's object, for either value of its state member, one after the other.
    let objects: [UInt8]
    /// The body's length apart from the states, to reserve its capacity once.
    let capacity: Int

    public init(widget: WidgetConfig) {
        self.init(widget: widget, slotsIn: nil)
    }

    /// A template that reads its actions' states from `states` by slot (the
    /// bridge's own table, whose slots a config fixes).
    init(widget: WidgetConfig, slotsIn states: ActionStates?) {
        var objects: [UInt8] = []
        /// Appends `text`'s bytes to `objects`: where they are.
        func kept(_ text: String) -> Range<Int> {
            let start = objects.count
            objects.append(contentsOf: text.utf8)
            return start..<objects.count
        }
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
            return Part(key: key, slot: states?.slot(of: key), state: field,
                        whenTrue: kept(head + field.text(true) + tail),
                        whenFalse: kept(head + field.text(false) + tail))
        }
        self.objects = objects
        capacity = parts.reduce(Self.framingBytes) { $0 + $1.largestBytes + 1 }
    }

    /// The PATCH body for `states`.
    public func body(states: [ActionKey: ActionState]) -> String {
        body(Shown(isTrue: parts.map { $0.state.isTrue(states[$0.key] ?? ActionState()) }))
    }

    /// The PATCH body for the bridge's `states`: read by slot when the template has them.
    public func body(states: ActionStates) -> String {
        body(shown(states))
    }

    /// What the bridge's `states` show on this template's tiles, read in place
    /// by slot when the template has them (no copy of a state).
    func shown(_ states: ActionStates) -> Shown {
        Shown(isTrue: parts.map { part in
            let isTrue = part.slot.flatMap { slot in states.read(slot: slot) { part.state.isTrue($0) } }
            return isTrue ?? part.state.isTrue(states[part.key] ?? ActionState())
        })
    }

    /// The PATCH body that `shown` renders: one byte copy per action.
    func body(_ shown: Shown) -> String {
        var body: [UInt8] = []
        body.reserveCapacity(capacity)
        body.append(contentsOf: Self.prefix)
        for index in parts.indices {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: objects[parts[index].bytes(shown.isTrue.indices.contains(index) && shown.isTrue[index])])
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
    /// Its bytes with the state member at its longest (`false` is one byte
    /// longer than `true`, and the bridge starts with every toggle off).
    var largestBytes: Int { max(whenTrue.count, whenFalse.count) }
}
