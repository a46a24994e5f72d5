/// Two MQTT clients with the same client id make the broker drop the older
/// connection each time the other connects, forever. The pattern: connected,
/// then dropped within `quickDropMs`, `quickDropsToReport` times in a row.
/// Pure: the shell passes the monotonic time of each connect and drop.
public struct ClientIdConflictDetector: Sendable, Equatable {
    /// A drop this soon after connecting counts as a kick.
    public static let quickDropMs: Int64 = 1_000
    /// Kicks in a row before the conflict is reported.
    public static let quickDropsToReport = 3

    private var connectedAtMs: Int64?
    private var quickDrops = 0
    private var isReported = false

    public init() {}

    public mutating func connected(nowMs: Int64) {
        connectedAtMs = nowMs
    }

    /// True once per streak, on the drop that completes the pattern.
    public mutating func disconnected(nowMs: Int64) -> Bool {
        guard let since = connectedAtMs else { return false }
        connectedAtMs = nil
        if nowMs.subtractingSaturating(since) < Self.quickDropMs {
            quickDrops += 1
        } else {
            quickDrops = 0
            isReported = false
        }
        guard quickDrops >= Self.quickDropsToReport, !isReported else { return false }
        isReported = true
        return true
    }

    /// What to tell the homeowner.
    public static func message(clientId: String) -> String {
        "another client uses client_id \(clientId): the broker drops this connection each time the other one connects; "
            + "give each bridge its own mqtt.client_id"
    }
}
