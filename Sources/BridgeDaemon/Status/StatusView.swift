import BridgeCore

/// The daemon's own state as a Webhook Widget envelope: `v`, `refresh`, a
/// spoken `accessibility` sentence, an optional tap `url` and a `view` with a
/// title row and one row per action. Pure and deterministic: the same snapshot
/// gives the same bytes.
public enum StatusView {
    /// The protocol's refresh range, seconds.
    public static let refreshRangeSeconds = 300...86_400
    /// Rows beyond this many actions are summed up in one "and N more" row, so
    /// the body stays small whatever the config holds.
    public static let maximumActionRows = 24

    /// The envelope for `snapshot`. `url` is added only when it passes
    /// `WebhookWidgetURL.isAllowed` (never a refused scheme).
    public static func envelope(for snapshot: BridgeSnapshot, url: String? = nil) -> JSONValue {
        var members = [
            JSONMember("v", .int(Int64(WebhookWidgetEnvelope.knownVersion))),
            JSONMember("refresh", .int(Int64(refreshSeconds(for: snapshot.config)))),
            JSONMember("accessibility", .string(accessibilitySentence(for: snapshot))),
        ]
        if let url, WebhookWidgetURL.isAllowed(url) { members.append(JSONMember("url", .string(url))) }
        members.append(JSONMember("view", view(for: snapshot)))
        return .object(members)
    }

    /// The envelope as compact JSON text (the HTTP body).
    public static func body(for snapshot: BridgeSnapshot, url: String? = nil) -> String {
        envelope(for: snapshot, url: url).serialized()
    }

    /// The configured refresh, clamped into the protocol's range.
    public static func refreshSeconds(for config: BridgeConfig) -> Int {
        let configured = (config.status ?? StatusSettings()).refreshSeconds
        return min(max(configured, refreshRangeSeconds.lowerBound), refreshRangeSeconds.upperBound)
    }

    /// "Porch light on, fountain off, fan unavailable; bridge connected".
    public static func accessibilitySentence(for snapshot: BridgeSnapshot) -> String {
        let phrases = rows(for: snapshot)
            .filter { $0.display.isSpoken }
            .enumerated()
            .map { index, row in
                (index == 0 ? row.label : SpokenText.midSentence(row.label)) + " " + row.display.word
            }
        let connection = connectionPhrase(snapshot)
        let sentence = phrases.isEmpty ? connection : phrases.joined(separator: ", ") + "; " + connection
        return SpokenText.sentenceStart(sentence)
    }

    /// "bridge connected", "MQTT disconnected", "event stream disconnected" or
    /// "MQTT and event stream disconnected".
    /// A refused token is named instead of "event stream disconnected".
    public static func connectionPhrase(_ snapshot: BridgeSnapshot) -> String {
        if !snapshot.isEventStreamConnected, let refused = snapshot.facts.connections.tokenRefusedPhrase {
            return snapshot.isMQTTConnected ? refused : "MQTT disconnected, \(refused)"
        }
        switch (snapshot.isMQTTConnected, snapshot.isEventStreamConnected) {
        case (true, true): return "bridge connected"
        case (false, true): return "MQTT disconnected"
        case (true, false): return "event stream disconnected"
        case (false, false): return "MQTT and event stream disconnected"
        }
    }

    /// One action as the widget shows it.
    struct Row: Equatable {
        var label: String
        var display: ActionDisplayState
    }

    /// Every action of every widget, in config order.
    static func rows(for snapshot: BridgeSnapshot) -> [Row] {
        snapshot.config.allActions.map { slug, action in
            let state = snapshot.states[ActionKey(slug: slug, actionId: action.id)]
            return Row(label: action.label, display: ActionDisplayState.of(action, state: state))
        }
    }

    private static func view(for snapshot: BridgeSnapshot) -> JSONValue {
        let allRows = rows(for: snapshot)
        var children = [StatusViewNodes.title("Switchboard")]
        children += allRows.prefix(maximumActionRows).map(StatusViewNodes.actionRow)
        if allRows.count > maximumActionRows {
            children.append(StatusViewNodes.moreRow(count: allRows.count - maximumActionRows))
        }
        if allRows.isEmpty { children.append(StatusViewNodes.note("No actions configured")) }
        children.append(StatusViewNodes.spacer())
        let connected = snapshot.isMQTTConnected && snapshot.isEventStreamConnected
        children.append(StatusViewNodes.footer(SpokenText.sentenceStart(connectionPhrase(snapshot)), isWarning: !connected))
        return StatusViewNodes.stack(children)
    }
}
