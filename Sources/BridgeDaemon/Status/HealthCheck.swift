import BridgeCore

/// `/healthz`: healthy (200) when both MQTT and the event stream are
/// connected; otherwise 503 with the reason in plain words.
public enum HealthCheck {
    /// The status code and the body (one line) for `snapshot`; nil means the
    /// runtime has not finished its first batch yet.
    public static func evaluate(_ snapshot: BridgeSnapshot?) -> (status: Int, body: String) {
        guard let snapshot else { return (503, "starting\n") }
        var reasons: [String] = []
        if !snapshot.isMQTTConnected { reasons.append("mqtt disconnected") }
        if !snapshot.isEventStreamConnected {
            reasons.append(snapshot.facts.connections.tokenRefusedPhrase ?? "event stream disconnected")
        }
        guard !reasons.isEmpty else { return (200, "ok\n") }
        return (503, reasons.joined(separator: "; ") + "\n")
    }
}
