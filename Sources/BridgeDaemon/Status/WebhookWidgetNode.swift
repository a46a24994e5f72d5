import BridgeCore

/// The view nodes the Webhook Widget protocol shows, with their attributes:
/// `vstack` (align, spacing, padding, bg, children), `text` (text, style,
/// weight, color, lines) and `spacer`. Anything else is reported.
public enum WebhookWidgetNode {
    /// Node types and the attributes each may carry (besides `type`).
    public static let attributesByType: [String: Set<String>] = [
        "vstack": ["align", "spacing", "padding", "bg", "children"],
        "text": ["text", "style", "weight", "color", "lines"],
        "spacer": [],
    ]
    public static let alignments: Set<String> = ["leading", "center", "trailing"]
    public static let textStyles: Set<String> = [
        "largeTitle", "title", "title2", "title3", "headline", "subheadline",
        "body", "callout", "footnote", "caption", "caption2",
    ]
    public static let fontWeights: Set<String> = [
        "ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black",
    ]
    /// Deeper trees are refused (bounded work, bounded recursion).
    public static let maximumDepth = 32

    /// Every problem of the node at `path` and its children.
    public static func validate(_ node: JSONValue, at path: String) -> [String] {
        validate(node, at: path, depth: 0)
    }

    private static func validate(_ node: JSONValue, at path: String, depth: Int) -> [String] {
        guard depth < maximumDepth else { return ["\(path) is nested deeper than \(maximumDepth)"] }
        guard case .object(let members) = node else { return ["\(path) must be an object"] }
        guard let type = node["type"]?.stringValue else { return ["\(path).type is missing"] }
        guard let allowed = attributesByType[type] else { return ["\(path).type \(type) is not a known node type"] }
        var problems = members.map(\.key)
            .filter { $0 != "type" && !allowed.contains($0) }
            .map { "\(path).\($0) is not an attribute of \(type)" }
        switch type {
        case "vstack": problems += stackProblems(node, at: path, depth: depth)
        case "text": problems += textProblems(node, at: path)
        default: break
        }
        return problems
    }

    private static func stackProblems(_ node: JSONValue, at path: String, depth: Int) -> [String] {
        var problems = attributeProblems(node, at: path)
        guard case .array(let children)? = node["children"] else {
            return problems + ["\(path).children must be an array"]
        }
        for (index, child) in children.enumerated() {
            problems += validate(child, at: "\(path).children[\(index)]", depth: depth + 1)
        }
        return problems
    }

    private static func textProblems(_ node: JSONValue, at path: String) -> [String] {
        var problems = attributeProblems(node, at: path)
        if node["text"]?.stringValue == nil { problems.append("\(path).text must be a string") }
        return problems
    }

    /// Checks each attribute that is present against its kind of value.
    private static func attributeProblems(_ node: JSONValue, at path: String) -> [String] {
        var problems: [String] = []
        func check(_ key: String, _ isValid: (JSONValue) -> Bool, _ expected: String) {
            if let value = node[key], !isValid(value) { problems.append("\(path).\(key) must be \(expected)") }
        }
        check("align", { $0.stringValue.map(alignments.contains) ?? false }, "leading, center or trailing")
        check("spacing", isNonNegativeNumber, "a number of points, zero or more")
        check("padding", isNonNegativeNumber, "a number of points, zero or more")
        check("bg", isColor, "a color (#RRGGBB or a name)")
        check("color", isColor, "a color (#RRGGBB or a name)")
        check("style", { $0.stringValue.map(textStyles.contains) ?? false }, "a text style such as footnote")
        check("weight", { $0.stringValue.map(fontWeights.contains) ?? false }, "a font weight such as bold")
        check("lines", isPositiveInteger, "a whole number of lines, one or more")
        return problems
    }

    private static func isNonNegativeNumber(_ value: JSONValue) -> Bool {
        WebhookWidgetEnvelope.number(value).map { $0 >= 0 } ?? false
    }

    private static func isPositiveInteger(_ value: JSONValue) -> Bool {
        if case .int(let count) = value { return count >= 1 }
        return false
    }

    /// `#RGB`, `#RRGGBB`, `#RRGGBBAA` or a color name in letters.
    static func isColor(_ value: JSONValue) -> Bool {
        guard let text = value.stringValue, !text.isEmpty else { return false }
        let scalars = text.unicodeScalars
        if scalars.first == "#" {
            let digits = scalars.dropFirst()
            return [3, 6, 8].contains(digits.count) && digits.allSatisfy(\.properties.isASCIIHexDigit)
        }
        return scalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }
    }
}
