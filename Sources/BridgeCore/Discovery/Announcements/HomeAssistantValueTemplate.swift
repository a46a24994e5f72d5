/// The only Jinja templates discovery translates: `{{ value }}` (the raw payload),
/// `{{ value_json.a.b }}` and `{{ value_json['a'] }}` / `{{ value_json["a"] }}`
/// (a path into a JSON payload). Anything else is refused with the reason.
public enum HomeAssistantValueTemplate: Sendable, Equatable {
    /// The payload itself.
    case rawPayload
    /// A field of a JSON payload.
    case field([String])

    /// The translation, or why there is none.
    public static func parse(_ template: String) -> Result<HomeAssistantValueTemplate, TemplateRefusal> {
        var body = template.trimmingSpaces()
        guard body.hasPrefix("{{"), body.hasSuffix("}}"), body.count >= 4 else {
            return .failure(TemplateRefusal("'\(template)' is not a single {{ ... }} expression"))
        }
        body = String(body.dropFirst(2).dropLast(2)).trimmingSpaces()
        if body == "value" { return .success(.rawPayload) }
        guard body.hasPrefix("value_json") else {
            return .failure(TemplateRefusal("'\(template)' is neither {{ value }} nor a value_json path"))
        }
        guard let path = jsonPath(body.dropFirst("value_json".count)), !path.isEmpty else {
            return .failure(TemplateRefusal("'\(template)' uses filters, tests or expressions; only value_json.a.b or value_json['a'] paths are translated"))
        }
        return .success(.field(path))
    }

    /// `.a.b['c']["d"]` as `[a, b, c, d]`, or nil for anything else.
    private static func jsonPath(_ text: Substring) -> [String]? {
        var path: [String] = []
        var rest = text
        while let first = rest.first {
            if first == "." {
                let name = rest.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                guard !name.isEmpty, !(name.first?.isNumber ?? false) else { return nil }
                path.append(String(name))
                rest = rest.dropFirst(1 + name.count)
            } else if first == "[" {
                let inner = rest.dropFirst()
                guard let quote = inner.first, quote == "'" || quote == "\"" else { return nil }
                let name = inner.dropFirst().prefix { $0 != quote }
                let after = inner.dropFirst(1 + name.count)
                guard after.hasPrefix("\(quote)]"), !name.isEmpty else { return nil }
                path.append(String(name))
                rest = after.dropFirst(2)
            } else {
                return nil
            }
        }
        return path
    }
}

/// Why a template is not translated.
public struct TemplateRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
