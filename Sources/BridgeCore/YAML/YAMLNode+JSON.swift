extension YAMLNode {
    /// The node as JSON: mappings become objects (in file order), sequences
    /// arrays, scalars their typed values. Non-string keys become their text.
    public var jsonValue: JSONValue {
        switch content {
        case .scalar(let scalar):
            switch scalar.value {
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case .int(let number): return .int(number)
            case .double(let number): return .double(number)
            case .string(let text): return .string(text)
            }
        case .sequence(let items):
            return .array(items.map(\.jsonValue))
        case .mapping(let entries):
            return .object(entries.map { JSONMember($0.keyText, $0.value.jsonValue) })
        }
    }
}
