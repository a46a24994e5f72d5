/// When each device was last asked for its state, so a device coming back online
/// (its availability says so again) is asked once, not on every flap: one query per
/// device at most every `minSpacingMs`. Keyed by the query's topic (as bytes): the
/// actions of one device share it (`StateQueryTable`).
struct StateQueryPacer: Sendable {
    /// The shortest spacing of two queries to one device caused by its availability.
    static let minSpacingMs: Int64 = 10_000

    /// Board clock of each query topic's last sending; only configured topics are kept.
    private var lastSentMs: [UTF8Key: Int64] = [:]

    /// Notes that the query to `topic` goes out now.
    mutating func noteSent(to topic: String, atMs nowMs: Int64) {
        lastSentMs[UTF8Key(topic)] = nowMs
    }

    /// Whether the query to `topic` may go out at `nowMs` (then noted as sent).
    mutating func takeIfDue(to topic: String, atMs nowMs: Int64) -> Bool {
        let key = UTF8Key(topic)
        if let last = lastSentMs[key], nowMs.subtractingSaturating(last) < Self.minSpacingMs, nowMs >= last { return false }
        lastSentMs[key] = nowMs
        return true
    }

    /// Forgets the topics no query of `table` goes to any more (after a reload).
    mutating func keepOnly(_ table: StateQueryTable) {
        let kept = Set(table.topics)
        lastSentMs = lastSentMs.filter { kept.contains($0.key) }
    }
}
