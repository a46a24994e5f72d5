/// Something announced that does not become a toggle, and why.
public struct SkippedThing: Sendable, Equatable, Comparable {
    public var what: String
    public var reason: String

    public init(what: String, reason: String) {
        self.what = what
        self.reason = reason
    }

    public static func < (lhs: SkippedThing, rhs: SkippedThing) -> Bool {
        (lhs.what, lhs.reason) < (rhs.what, rhs.reason)
    }
}
