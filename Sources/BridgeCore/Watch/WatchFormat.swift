/// How `watch` prints: for people first (aligned lines, a table at the end),
/// or one JSON object per line (`--json`) for scripts.
public enum WatchFormat {
    // MARK: people

    public static func humanHeader(config: String, broker: String, topics: Int, seconds: Int?) -> String {
        let until = seconds.map { "for \($0) s" } ?? "until Ctrl-C"
        return "watching \(topics) topic(s) of \(config) on \(broker) \(until); no command is sent"
    }

    public static func humanQuery(_ query: OutgoingMQTTMessage) -> String {
        "asking a device for its state: \(query.topic) '\(String(decoding: query.payload, as: UTF8.self))' (a state query, not a command)"
    }

    public static func human(_ event: WatchEvent) -> String {
        let detail = event.verdict.detail.map { " (\($0))" } ?? ""
        let seconds = "\(event.elapsedMs / 1000).\(String(event.elapsedMs % 1000 + 1000).dropFirst())s"
        return "+\(seconds) \(event.action) \(event.role) \(event.topic) '\(event.payloadExcerpt)' -> \(event.word)\(detail)"
    }

    /// The table per action: last state, messages seen, never heard from.
    public static func humanSummary(_ records: [WatchSession.ActionRecord]) -> [String] {
        let rows = records.map { record -> [String] in
            let note = record.isScene ? record.sceneTargets.map(\.text).joined(separator: ", ")
                : record.isNeverHeard ? "never heard from" + NearMiss.clause(record.nearMisses)
                : ([record.lastProblem.map { "last problem: \($0)" }, record.pressNote].compactMap { $0 }.joined(separator: "; "))
            return ["\(record.key)", record.stateWord, "\(record.messagesSeen)", note]
        }
        let header = ["action", "state", "messages", ""]
        let widths = (0..<3).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let padded = (0..<3).map { cells[$0] + String(repeating: " ", count: widths[$0] - cells[$0].count) }
            return (padded + [cells[3]]).joined(separator: "  ").trimmingTrailingSpaces
        }
        return [line(header)] + rows.map(line)
    }

    // MARK: scripts

    public static func jsonQuery(_ query: OutgoingMQTTMessage) -> String {
        object([("type", .string("state_query")), ("topic", .string(query.topic)),
                ("payload", .string(String(decoding: query.payload, as: UTF8.self)))])
    }

    public static func json(_ event: WatchEvent) -> String {
        object([
            ("type", .string("message")), ("elapsed_ms", .int(event.elapsedMs)),
            ("widget", .string(event.action.slug)), ("action", .string(event.action.actionId)),
            ("role", .string(event.role)), ("topic", .string(event.topic)), ("payload", .string(event.payloadExcerpt)),
            ("reading", .string(event.word)), ("why", event.verdict.detail.map(JSONValue.string) ?? .null),
        ])
    }

    public static func jsonSummary(_ record: WatchSession.ActionRecord) -> String {
        var members: [(String, JSONValue)] = [
            ("type", .string("summary")), ("widget", .string(record.key.slug)), ("action", .string(record.key.actionId)),
            ("state", .string(record.stateWord)), ("messages", .int(Int64(record.messagesSeen))),
            ("never_heard_from", .bool(record.isNeverHeard)), ("last_problem", record.lastProblem.map(JSONValue.string) ?? .null),
            ("near_misses", .array(record.nearMisses.map { .string($0.found) })),
        ]
        if let pressNote = record.pressNote { members.append(("press", .string(pressNote))) }
        if record.isScene {
            members.append(("targets", .array(record.sceneTargets.map { target in
                JSONValue.object([JSONMember("action", .string(target.actionId)), JSONMember("wants", .string(target.wants ? "on" : "off")),
                                  JSONMember("holds", .bool(target.holds)), JSONMember("state", .string(target.stateWord))])
            })))
        }
        return object(members)
    }

    private static func object(_ members: [(String, JSONValue)]) -> String {
        JSONValue.object(members.map { JSONMember($0.0, $0.1) }).serialized()
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
