/// Renders a widget's whole Switchboard content from the config and the states.
/// Deterministic: the same inputs give the same bytes, so bodies can be compared.
public enum ContentRenderer {
    /// The PATCH body: `{"content":{"template":"switchboard","actions":[...]}}`.
    /// The bridge keeps a `WidgetTemplate` per widget; this builds one each time.
    public static func patchBody(widget: WidgetConfig, states: [ActionKey: ActionState]) -> String {
        WidgetTemplate(widget: widget).body(states: states)
    }

    /// The same body as a JSON value: what `WidgetTemplate` is tested against.
    public static func bodyValue(widget: WidgetConfig, states: [ActionKey: ActionState]) -> JSONValue {
        let actions = widget.actions.map { action in
            actionObject(action, state: states[ActionKey(slug: widget.slug, actionId: action.id)] ?? ActionState())
        }
        let content = JSONValue.object([
            JSONMember("template", .string("switchboard")),
            JSONMember("actions", .array(actions)),
        ])
        return JSONValue.object([JSONMember("content", content)])
    }

    /// One action's object: the bridge's own fields, then the pass-through ones.
    static func actionObject(_ action: ActionConfig, state: ActionState) -> JSONValue {
        .object(headMembers(action) + stateMembers(action, state: state) + tailMembers(action))
    }

    /// What the config fixes before the state: id, label, icon, kind.
    static func headMembers(_ action: ActionConfig) -> [JSONMember] {
        var members = [JSONMember("id", .string(action.id)), JSONMember("label", .string(action.label))]
        if let icon = action.icon { members.append(JSONMember("icon", .string(icon))) }
        members.append(JSONMember("kind", .string(action.kind.rawValue)))
        return members
    }

    /// The member the state decides: a toggle's `on`, a button's `active` when it has an active source.
    static func stateMembers(_ action: ActionConfig, state: ActionState) -> [JSONMember] {
        switch action.kind {
        case .toggle: [JSONMember("on", .bool(state.shownOn(action.device)))]
        case .button where action.hasHighlight: [JSONMember("active", .bool(state.isActive))]
        case .button: []
        }
    }

    /// What the config fixes after the state: color, then the pass-through fields
    /// the bridge does not set itself.
    static func tailMembers(_ action: ActionConfig) -> [JSONMember] {
        var members: [JSONMember] = []
        if let color = action.color { members.append(JSONMember("color", .string(color))) }
        let ownKeys = Set((headMembers(action) + stateMembers(action, state: ActionState()) + members).map(\.key))
        return members + action.passthrough.filter { !ownKeys.contains($0.key) }
    }
}
