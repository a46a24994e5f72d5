import BridgeCore

/// The words the app shows on a tile's second line: the one list, which the
/// shared tile drawing (`SwitchboardTileHTML`) draws.
public typealias TileState = TileFaceState

/// What one tile shows on one phone right now.
public struct TileDisplay: Sendable, Equatable {
    public var id: String
    public var label: String
    public var kind: TileKind
    public var state: TileState
    /// What the phone last received for the tile: toggles' `on`, buttons' `active`.
    /// Under No response this is the state last published.
    public var publishedOnOrActive: Bool
}
