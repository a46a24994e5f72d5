import BridgeCore

/// Checks a JSON envelope against every rule of the Webhook Widget protocol
/// document; used by the tests on what `StatusView` produces.
public enum WebhookWidgetEnvelope {
    /// The newest protocol version the app knows.
    public static let knownVersion = 1
    /// Entries beyond this many are not looked at (bounded work).
    public static let maximumCheckedEntries = 256

    /// Every problem found, as readable sentences; empty when the envelope is valid.
    public static func validate(_ envelope: JSONValue) -> [String] {
        guard case .object = envelope else { return ["the envelope is not a JSON object"] }
        var problems: [String] = []
        problems += versionProblems(envelope["v"])
        if let refresh = envelope["refresh"], number(refresh) == nil { problems.append("refresh must be a number") }
        if let accessibility = envelope["accessibility"], accessibility.stringValue == nil {
            problems.append("accessibility must be a string")
        }
        problems += urlProblems(envelope["url"])
        problems += contentProblems(view: envelope["view"], entries: envelope["entries"])
        return problems
    }

    /// A JSON number as a finite Double; nil for anything else.
    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let integer): return Double(integer)
        case .double(let real) where real.isFinite: return real
        default: return nil
        }
    }

    private static func versionProblems(_ version: JSONValue?) -> [String] {
        guard let version else { return ["v is missing: every payload must name its protocol version"] }
        guard let number = number(version) else { return ["v must be a number"] }
        if number > Double(knownVersion) { return ["v \(version.serialized()) is above the known version \(knownVersion)"] }
        if number != Double(knownVersion) { return ["v \(version.serialized()) is not a known version"] }
        return []
    }

    private static func urlProblems(_ url: JSONValue?) -> [String] {
        guard let url else { return [] }
        guard let text = url.stringValue else { return ["url must be a string"] }
        return WebhookWidgetURL.problem(with: text).map { [$0] } ?? []
    }

    private static func contentProblems(view: JSONValue?, entries: JSONValue?) -> [String] {
        switch (view, entries) {
        case (nil, nil): return ["a response needs either view or entries"]
        case (.some, .some): return ["use view or entries, not both"]
        case (.some(let view), nil): return WebhookWidgetNode.validate(view, at: "view")
        case (nil, .some(let entries)): return entriesProblems(entries)
        }
    }

    private static func entriesProblems(_ entries: JSONValue) -> [String] {
        guard case .array(let items) = entries else { return ["entries must be an array"] }
        guard !items.isEmpty else { return ["entries is empty"] }
        return items.prefix(maximumCheckedEntries).enumerated().flatMap { index, item in
            entryProblems(item, at: "entries[\(index)]")
        }
    }

    private static func entryProblems(_ entry: JSONValue, at path: String) -> [String] {
        guard case .object = entry else { return ["\(path) must be an object"] }
        var problems: [String] = []
        if let at = entry["at"] {
            if at.stringValue.flatMap(ISO8601Timestamp.milliseconds(from:)) == nil {
                problems.append("\(path).at must be an ISO-8601 date-time")
            }
        } else {
            problems.append("\(path).at is missing")
        }
        if let view = entry["view"] {
            problems += WebhookWidgetNode.validate(view, at: "\(path).view")
        } else {
            problems.append("\(path).view is missing")
        }
        if let accessibility = entry["accessibility"], accessibility.stringValue == nil {
            problems.append("\(path).accessibility must be a string")
        }
        return problems
    }
}
