/// The Aivi service's own limits on presses (`shared/aivi-api.md`, "Timing and
/// what the phone shows"): what the bridge sizes its memory and its own limits by.
public enum AiviServiceLimits {
    /// A press expires this long after it was made (`expires_at` = `created_at` + 5 s).
    public static let pressLifetimeMs: Int64 = 5_000
    /// The furthest a press may claim to expire after the server's clock (as the
    /// bridge reads it): 60 s, twelve times the guide's 5 s, so a clock off by
    /// a few seconds never refuses a real press. A press claiming more is
    /// refused, and no id is remembered longer than this plus the margin.
    public static let maxClaimedLifetimeMs: Int64 = 60_000
    /// Presses across all widgets and phones of an account, in one burst.
    public static let accountBurstPresses = 20
    /// ... then this many a second.
    public static let accountPressesPerSecond = 1

    /// The bridge's own bound on how fast one action's presses become commands,
    /// above anything the service delivers when it keeps its limits (a burst of 20
    /// for the whole account, then 1 a second): a burst of 24, then 2 a second.
    /// A hostile service made 24,000 commands a second on one relay.
    public static let actionCommandBurst: Int64 = 24
    public static let actionCommandRefillMs: Int64 = 500
}
