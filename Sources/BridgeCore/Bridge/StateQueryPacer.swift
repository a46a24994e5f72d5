/// When each device was last asked for its state, so a device coming back online
/// (its availability says so again) is asked once, not on every flap: one query per
/// device at most every `minSpacingMs`. Keyed by the query (topic and payload, as
/// bytes): two actions on one device share it.
struct StateQueryPacer: Sendable {
    /// The shortest spacing of two queries to one device caused by its availability.
    static let minSpacingMs: Int64 = 10_000

    struct QueryKey: Hashable, Sendable {
        var topic: UTF8Key
        var payload: [UInt8]
        init(_ query: MQTTMessageSpec) {
            topic = UTF8Key(query.topic)
            payload = Array(query.payload.utf8)
        }
    }

    /// Board clock of each query's last sending; only configured queries are kept.
    private var lastSentMs: [QueryKey: Int64] = [:]

    /// Notes that `query` goes out now.
    mutating func noteSent(_ query: MQTTMessageSpec, atMs nowMs: Int64) {
        lastSentMs[QueryKey(query)] = nowMs
    }

    /// Whether `query` may go out at `nowMs` (then noted as sent).
    mutating func takeIfDue(_ query: MQTTMessageSpec, atMs nowMs: Int64) -> Bool {
        let key = QueryKey(query)
        if let last = lastSentMs[key], nowMs.subtractingSaturating(last) < Self.minSpacingMs, nowMs >= last { return false }
        lastSentMs[key] = nowMs
        return true
    }

    /// Forgets the queries no action of `actions` sends any more (after a reload).
    mutating func keepOnly(_ actions: some Sequence<ActionConfig>) {
        let kept = Set(actions.compactMap { $0.stateQuery.map(QueryKey.init) })
        lastSentMs = lastSentMs.filter { kept.contains($0.key) }
    }
}
