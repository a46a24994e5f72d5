import BridgeCore

/// Checks a PATCH body against the Switchboard template, as strictly as the service.
public enum SwitchboardValidator {
    /// The fields that, when present, must be strings.
    private static let stringFields = ["label", "icon", "color", "subtitle"]

    /// The content of a valid body, or the reason it is invalid.
    public static func content(ofBody body: JSONValue) -> Result<JSONValue, ContentError> {
        guard case .object = body else { return .failure(ContentError("body is not a JSON object")) }
        guard let content = body["content"] else { return .failure(ContentError("content is missing")) }
        guard case .object = content else { return .failure(ContentError("content is not an object")) }
        guard let template = content["template"] else { return .failure(ContentError("content.template is missing")) }
        guard template.stringValue == "switchboard" else {
            return .failure(ContentError("content.template must be \"switchboard\""))
        }
        guard let actionsValue = content["actions"] else { return .failure(ContentError("content.actions is missing")) }
        guard case .array(let actions) = actionsValue else {
            return .failure(ContentError("content.actions is not an array"))
        }
        var seenIds = Set<String>()
        for (index, action) in actions.enumerated() {
            if let problem = problem(in: action, seenIds: &seenIds) {
                return .failure(ContentError("content.actions[\(index)]: \(problem)"))
            }
        }
        return .success(content)
    }

    private static func problem(in action: JSONValue, seenIds: inout Set<String>) -> String? {
        guard case .object = action else { return "not an object" }
        guard let idValue = action["id"] else { return "id is missing" }
        guard let id = idValue.stringValue, !id.isEmpty else { return "id is not a non-empty string" }
        guard seenIds.insert(id).inserted else { return "duplicate id \"\(id)\"" }
        guard action["label"] != nil else { return "label is missing" }
        for field in stringFields where action[field] != nil && action[field]?.stringValue == nil {
            return "\(field) is not a string"
        }
        if let problem = colorProblem(action["color"]?.stringValue) { return problem }
        return kindProblem(in: action)
    }

    private static func kindProblem(in action: JSONValue) -> String? {
        let kindValue = action["kind"] ?? .string("button")
        guard let kind = kindValue.stringValue.flatMap(TileKind.init(rawValue:)) else {
            return "kind must be \"button\" or \"toggle\""
        }
        for flag in ["on", "active"] where action[flag] != nil && action[flag]?.boolValue == nil {
            return "\(flag) is not a bool"
        }
        if kind == .toggle && action["on"] == nil { return "a toggle needs on" }
        return nil
    }

    private static func colorProblem(_ color: String?) -> String? {
        guard let color, color.hasPrefix("#") else { return nil }
        let digits = color.dropFirst()
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit) else { return "color is not #RRGGBB" }
        return nil
    }
}

/// Why content is not a valid Switchboard (the 400 answer's `error`).
public struct ContentError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
