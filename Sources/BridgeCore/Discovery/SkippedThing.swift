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

extension [SkippedThing] {
    /// The most skipped things listed one by one; the rest are counted.
    public static let maxListed = 100

    /// One bounded line per skipped thing (`what: reason`, each cut and free of
    /// control characters: an announcement can name itself anything), at most
    /// `maxListed` of them, then `… and N more`.
    public func listed(prefix: String) -> [String] {
        var lines = self.prefix(Self.maxListed).map { thing in
            "\(prefix)\(YAMLScalarWriter.comment(thing.what, maxLength: 160)): \(YAMLScalarWriter.comment(thing.reason))"
        }
        if count > Self.maxListed { lines.append("\(prefix)… and \(count - Self.maxListed) more") }
        return lines
    }
}
