/// Renders a widget's whole Switchboard content from the config and the states.
/// Deterministic: the same inputs give the same bytes, so bodies can be compared.
public enum ContentRenderer {
    /// The PATCH body: `{"content":{"template":"switchboard","actions":[...]}}`.
    public static func patchBody(widget: WidgetConfig, states: [ActionKey: ActionState]) -> String {
        let actions = widget.actions.map { action in
            actionObject(action, state: states[ActionKey(slug: widget.slug, actionId: action.id)] ?? ActionState())
        }
        let content = JSONValue.object([
            JSONMember("template", .string("switchboard")),
            JSONMember("actions", .array(actions)),
        ])
        return JSONValue.object([JSONMember("content", content)]).serialized()
    }

    /// One action's object: the bridge's own fields, then the pass-through ones.
    static func actionObject(_ action: ActionConfig, state: ActionState) -> JSONValue {
        var members = [JSONMember("id", .string(action.id)), JSONMember("label", .string(action.label))]
        if let icon = action.icon { members.append(JSONMember("icon", .string(icon))) }
        members.append(JSONMember("kind", .string(action.kind.rawValue)))
        switch action.kind {
        case .toggle: members.append(JSONMember("on", .bool(state.publishedOn)))
        case .button where action.activeSource != nil: members.append(JSONMember("active", .bool(state.isActive)))
        case .button: break
        }
        if let color = action.color { members.append(JSONMember("color", .string(color))) }
        let ownKeys = Set(members.map(\.key))
        members += action.passthrough.filter { !ownKeys.contains($0.key) }
        return .object(members)
    }
}
