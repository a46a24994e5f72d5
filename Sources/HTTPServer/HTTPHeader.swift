/// One header field of a request or response, as it appeared on the wire.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HTTPHeader {
    /// The value of the first header named `name` (case-insensitive), or nil.
    public func value(named name: String) -> String? {
        let wanted = name.lowercased()
        return first(where: { $0.name.lowercased() == wanted })?.value
    }
}
