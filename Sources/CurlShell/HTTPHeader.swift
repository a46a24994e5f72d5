/// One HTTP header field.
public struct HTTPHeader: Sendable, Equatable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension [HTTPHeader] {
    /// The first value of the header `name` (case-insensitive), if present.
    public func value(of name: String) -> String? {
        let wanted = name.lowercased()
        return first { $0.name.lowercased() == wanted }?.value
    }
}
