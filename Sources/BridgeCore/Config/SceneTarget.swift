/// One tile of a scene (`sets: {porch: off}`): an action of the same widget and
/// the state the scene puts it in (for a cover on = open, for a lock on = locked).
public struct SceneTarget: Sendable, Equatable {
    /// The id of a toggle of the scene's own widget.
    public var actionId: String
    /// The state the scene asks for.
    public var on: Bool
    /// Where the entry is in the config file.
    public var location: SourceLocation?

    public init(actionId: String, on: Bool, location: SourceLocation? = nil) {
        self.actionId = actionId
        self.on = on
        self.location = location
    }
}
