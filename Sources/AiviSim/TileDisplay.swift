/// The words the app shows on a tile's second line (the guide's table).
public enum TileState: String, Sendable, Equatable {
    case off = "Off"
    case idle = "Idle"
    case on = "On"
    case active = "Active"
    case turningOn = "Turning on"
    case turningOff = "Turning off"
    case noResponse = "No response"
    case sent = "Sent"
}

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
