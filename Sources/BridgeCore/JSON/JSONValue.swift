/// A JSON document as a value: what the bridge reads from device payloads and
/// events, and what it renders for the Aivi API.
///
/// Objects keep their members in order, so rendering is deterministic and
/// pass-through fields keep the order the homeowner wrote them in.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The member named `key` of an object, or nil (also for non-objects).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    /// The value at a dotted path (`a.b.c`), or nil where any step is missing.
    public func value(atPath path: [String]) -> JSONValue? {
        var current: JSONValue? = self
        for key in path { current = current?[key] }
        return current
    }

    /// The string if this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The bool if this is a bool.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The members if this is an object.
    public var objectMembers: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A scalar as the text a person would compare it with: strings as they are,
    /// `true`/`false`, numbers in JSON form; nil for null, arrays and objects.
    public var scalarText: String? {
        switch self {
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double: return serialized()
        case .null, .array, .object: return nil
        }
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
