/// Names one action: its widget's slug and its id within the widget.
///
/// Equal as the two names are equal (`String ==`). The key is looked up in
/// several dictionaries on every press and state message, so it keeps its
/// names' hash, made once when the key is made, and hashes as that one number
/// (two `String` hashes a look-up otherwise).
public struct ActionKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let slug: String
    public let actionId: String
    /// `Hasher`'s value of the two names (this process's seed): equal names,
    /// equal digests, since `String`'s hash agrees with its `==`.
    private let namesDigest: Int

    public init(slug: String, actionId: String) {
        self.slug = slug
        self.actionId = actionId
        var hasher = Hasher()
        hasher.combine(slug)
        hasher.combine(actionId)
        namesDigest = hasher.finalize()
    }

    public var description: String { "\(slug)/\(actionId)" }

    public static func == (lhs: ActionKey, rhs: ActionKey) -> Bool {
        lhs.namesDigest == rhs.namesDigest && lhs.slug == rhs.slug && lhs.actionId == rhs.actionId
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(namesDigest) }

    public static func < (lhs: ActionKey, rhs: ActionKey) -> Bool {
        (lhs.slug, lhs.actionId) < (rhs.slug, rhs.actionId)
    }
}
