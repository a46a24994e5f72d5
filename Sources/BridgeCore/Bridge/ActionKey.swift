/// Names one action: its widget's slug and its id within the widget.
public struct ActionKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var slug: String
    public var actionId: String

    public init(slug: String, actionId: String) {
        self.slug = slug
        self.actionId = actionId
    }

    public var description: String { "\(slug)/\(actionId)" }

    public static func < (lhs: ActionKey, rhs: ActionKey) -> Bool {
        (lhs.slug, lhs.actionId) < (rhs.slug, rhs.actionId)
    }
}
