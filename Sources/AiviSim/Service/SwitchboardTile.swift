import BridgeCore

/// What kind of tile an action is.
public enum TileKind: String, Sendable, Equatable {
    case button
    case toggle
}

/// One action of a Switchboard's content, as the phone reads it.
public struct SwitchboardTile: Sendable, Equatable {
    public var id: String
    public var label: String
    public var kind: TileKind
    /// Toggles: whether the thing is on.
    public var isOn: Bool
    /// Buttons: the highlight.
    public var isActive: Bool

    /// The tiles of validated content, in order.
    public static func tiles(in content: JSONValue) -> [SwitchboardTile] {
        guard case .array(let actions)? = content["actions"] else { return [] }
        return actions.compactMap { action in
            guard let id = action["id"]?.stringValue else { return nil }
            return SwitchboardTile(
                id: id,
                label: action["label"]?.stringValue ?? "",
                kind: action["kind"]?.stringValue == "toggle" ? .toggle : .button,
                isOn: action["on"]?.boolValue ?? false,
                isActive: action["active"]?.boolValue ?? false)
        }
    }
}
