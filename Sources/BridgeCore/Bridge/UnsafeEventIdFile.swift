/// Where, inside `state_dir`, the event ids of presses not safe to repeat are kept
/// across restarts: named here so the daemon's store and the tools that watch it
/// (the soak) cannot drift apart.
public enum UnsafeEventIdFile {
    /// The append-only log, one JSON line per id.
    public static let name = "unsafe-event-ids.jsonl"
    /// The file of earlier versions (one JSON document), read once and migrated.
    public static let legacyName = "unsafe-event-ids.json"
}
