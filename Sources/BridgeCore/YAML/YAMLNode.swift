/// A node of a parsed YAML document, with the place in the file where it starts.
///
/// The subset parsed by `YAMLParser` has three kinds of node: scalars,
/// sequences and mappings whose keys are scalars.
public struct YAMLNode: Sendable, Equatable {
    public var content: YAMLContent
    /// 1-based line and column of the node's first character.
    public var location: SourceLocation

    public init(_ content: YAMLContent, at location: SourceLocation) {
        self.content = content
        self.location = location
    }

    /// The scalar if this node is one.
    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// The items if this node is a sequence.
    public var sequenceItems: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The entries if this node is a mapping.
    public var mappingEntries: [YAMLMapEntry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    /// True for a null scalar (`null`, `~` or nothing at all).
    public var isNull: Bool { scalar?.value == .null }

    /// A short name of the node's type for messages ("a mapping", "a string").
    public var typeDescription: String {
        switch content {
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .scalar(let scalar):
            switch scalar.value {
            case .null: return "nothing (null)"
            case .bool: return "a boolean"
            case .int: return "an integer"
            case .double: return "a number"
            case .string: return "a string"
            }
        }
    }
}

/// What a YAML node holds.
public enum YAMLContent: Sendable, Equatable {
    case scalar(YAMLScalar)
    case sequence([YAMLNode])
    case mapping([YAMLMapEntry])
}

/// One `key: value` entry of a mapping; the key is always a scalar node.
public struct YAMLMapEntry: Sendable, Equatable {
    public var key: YAMLNode
    public var value: YAMLNode

    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }

    /// The key as text, the way a JSON object would name it.
    public var keyText: String { key.scalar?.jsonKeyText ?? "" }
}

/// A scalar: its text after unquoting and unescaping, how it was written, and
/// its value typed by the YAML 1.2 core schema.
public struct YAMLScalar: Sendable, Equatable {
    public var text: String
    public var style: YAMLScalarStyle
    public var value: YAMLScalarValue

    public init(text: String, style: YAMLScalarStyle) {
        self.text = text
        self.style = style
        self.value = style == .plain ? YAMLScalarResolver.resolve(text) : .string(text)
    }

    /// The text a JSON object key would have (`1` -> "1", `true` -> "true").
    public var jsonKeyText: String {
        switch value {
        case .string(let text): return text
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return JSONValue.double(number).serialized()
        }
    }

    /// The scalar as a person would read it: strings as they are, numbers and
    /// booleans as written in the file; nil for null.
    public var textValue: String? {
        value == .null ? nil : text
    }
}

/// How a scalar was written.
public enum YAMLScalarStyle: Sendable, Equatable {
    case plain
    case singleQuoted
    case doubleQuoted
    case literal
    case folded
}

/// The typed value of a scalar (YAML 1.2 core schema).
public enum YAMLScalarValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
}
