/// What the bridge saw and did about one configured action, for the status
/// page: the message that last set it, its last press, the last warning.
public struct ActionFacts: Sendable, Equatable {
    public var lastMessage: HeardMessage?
    public var lastPress: PressFact?
    /// The last warning the log gave about this action (its text).
    public var lastWarning: String?

    public init() {}

    /// Ends the last press's wait with `outcome`, when it is the press whose id
    /// reads `eventIdExcerpt` (`LogExcerpt.id`); called in place in the facts.
    mutating func endLastPress(eventIdExcerpt: String, _ outcome: PressFactOutcome) {
        guard lastPress?.eventId == eventIdExcerpt else { return }
        lastPress?.outcome = outcome
    }
}

/// A message on one of an action's topics.
public struct HeardMessage: Sendable, Equatable {
    public var topic: String
    /// The payload, bounded and with control characters replaced (`PayloadExcerpt`).
    public var payloadExcerpt: String
    /// The board clock when it arrived.
    public var atMs: Int64

    /// Characters of a payload kept for the page.
    public static let payloadLimit = 120

    public init(topic: String, payloadExcerpt: String, atMs: Int64) {
        self.topic = topic
        self.payloadExcerpt = payloadExcerpt
        self.atMs = atMs
    }

    /// The message with its payload cut to `payloadLimit` characters.
    init(topic: String, payload: [UInt8], atMs: Int64) {
        self.init(topic: topic, payloadExcerpt: PayloadExcerpt.make(payload, limit: Self.payloadLimit), atMs: atMs)
    }
}
