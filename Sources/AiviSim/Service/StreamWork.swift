/// What an event stream's loop does next.
enum StreamWork: Sendable {
    /// Write these frames (possibly none) and go on from `cursor`.
    case send(frames: [String], cursor: Int)
    /// Send nothing at all, keepalives included (half-open fault).
    case stayQuiet
    /// End the stream cleanly (drop fault).
    case close
}
