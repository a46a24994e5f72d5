/// Two MQTT clients with the same client id make the broker drop the older
/// connection each time the other connects, forever. The pattern: connected,
/// then dropped within `quickDropMs`, `quickDropsToReport` times in a row. But a
/// broker that refuses this client right after accepting it (an ACL, a
/// connection limit) makes the same pattern: what the broker said tells them
/// apart when it says something: an MQTT 5 broker may end a taken-over session
/// with the reason "Session taken over" (certain), or give another reason (not
/// a conflict). A drop without a word (MQTT 3.1.1 always; mosquitto 2.0.11 even
/// over MQTT 5, measured) can only make the conflict a possibility, said as one.
/// Pure: the shell passes the monotonic time of each connect and drop.
public struct ClientIdConflictDetector: Sendable, Equatable {
    /// A drop this soon after connecting counts as a kick.
    public static let quickDropMs: Int64 = 1_000
    /// Kicks in a row before the conflict is reported.
    public static let quickDropsToReport = 3

    /// How an established connection ended, as far as the protocol says.
    public enum Drop: Sendable, Equatable {
        /// The broker said "Session taken over" (MQTT 5): another client has this client id.
        case sessionTakenOver
        /// The broker gave another reason (MQTT 5).
        case otherReason
        /// Closed without a reason.
        case unexplained
    }

    /// What a streak of quick drops means.
    public enum Finding: Sendable, Equatable {
        /// The broker said so: another client uses this client id.
        case clientIdConflict
        /// The broker said nothing: another client may use this client id, or the broker refuses this one.
        case possibleClientIdConflict
        /// Not a conflict: the broker gave another reason for dropping this client.
        case keepsDropping
    }

    private var connectedAtMs: Int64?
    private var quickDrops = 0
    private var sawTakeover = false
    private var sawOnlySilentDrops = true
    private var isReported = false

    public init() {}

    public mutating func connected(nowMs: Int64) {
        connectedAtMs = nowMs
    }

    /// The finding once per streak, on the drop that completes the pattern; nil otherwise
    /// (and for a failed attempt, which had no connection to drop).
    public mutating func disconnected(nowMs: Int64, drop: Drop) -> Finding? {
        guard let since = connectedAtMs else { return nil }
        connectedAtMs = nil
        guard nowMs.subtractingSaturating(since) < Self.quickDropMs else {
            quickDrops = 0
            sawTakeover = false
            sawOnlySilentDrops = true
            isReported = false
            return nil
        }
        quickDrops += 1
        if drop == .sessionTakenOver { sawTakeover = true }
        if drop != .unexplained { sawOnlySilentDrops = false }
        guard quickDrops >= Self.quickDropsToReport, !isReported else { return nil }
        isReported = true
        if sawTakeover { return .clientIdConflict }
        return sawOnlySilentDrops ? .possibleClientIdConflict : .keepsDropping
    }

    /// What to tell the homeowner.
    public static func message(_ finding: Finding, clientId: String) -> String {
        switch finding {
        case .clientIdConflict:
            return "another client uses client_id \(clientId) (the broker says the session was taken over): the broker drops "
                + "this connection each time the other one connects; give each bridge its own mqtt.client_id"
        case .possibleClientIdConflict:
            return "the broker drops this connection within a second of each connect, without saying why: another client "
                + "may use client_id \(clientId) (give each bridge its own mqtt.client_id), or the broker refuses this client "
                + "(its log says why)"
        case .keepsDropping:
            return "the broker drops this connection within a second of each connect, giving a reason other than another "
                + "client taking over client_id \(clientId) (the warnings above say which): its log says more"
        }
    }
}
