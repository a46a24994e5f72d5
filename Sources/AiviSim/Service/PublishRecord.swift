import BridgeCore

/// One accepted PATCH of a widget: its content and when the service received it.
public struct PublishRecord: Sendable, Equatable {
    /// Order across all widgets (1, 2, ...).
    public var sequence: Int
    public var content: JSONValue
    public var receivedAtMs: Int64

    /// The tiles of this content.
    public var tiles: [SwitchboardTile] { SwitchboardTile.tiles(in: content) }
}
