/// What an input of an inbox says about itself: whether it may be dropped,
/// what it costs, whether one queued already covers it.
protocol InboxInput: Sendable {
    /// Never dropped: losing it would hang or mislead its reader (their number is
    /// bounded by their senders).
    var isEssential: Bool { get }
    /// Bytes a queued droppable input costs, at least 1.
    var inboxByteCount: Int { get }
    /// An essential input another one of its kind, already queued, covers.
    var isIdempotent: Bool { get }
    /// Whether `self` and `other` are the same request.
    func isSameRequest(as other: Self) -> Bool
}
