/// The event ids already seen, so a press delivered twice runs once.
///
/// Bounded: an id leaves once its press has expired plus a margin (no replay can
/// deliver it after that), and a hard capacity evicts the soonest-expiring first.
struct DedupeMemory: Sendable {
    private(set) var expiries: [String: Int64] = [:]
    /// Ids of actions that are not safe to repeat: persisted by the shell.
    private(set) var unsafeIds: Set<String> = []
    let marginMs: Int64
    let capacity: Int

    init(marginMs: Int64, capacity: Int, remembered: [RememberedEvent]) {
        self.marginMs = marginMs
        self.capacity = max(1, capacity)
        for event in remembered {
            expiries[event.id] = event.expiresAtMs
            unsafeIds.insert(event.id)
        }
    }

    func contains(_ id: String) -> Bool { expiries[id] != nil }

    /// Remembers an id; returns true when the unsafe set changed.
    mutating func remember(_ id: String, expiresAtMs: Int64, isUnsafe: Bool) -> Bool {
        expiries[id] = expiresAtMs
        if expiries.count > capacity { evictSoonestExpiring() }
        guard isUnsafe else { return false }
        return unsafeIds.insert(id).inserted
    }

    /// Forgets ids whose presses expired more than the margin ago; returns true
    /// when the unsafe set changed.
    mutating func forgetExpired(serverClockMs: Int64) -> Bool {
        let before = unsafeIds.count
        for (id, expiresAtMs) in expiries where expiresAtMs.addingSaturating(marginMs) < serverClockMs {
            expiries[id] = nil
            unsafeIds.remove(id)
        }
        return unsafeIds.count != before
    }

    /// The unsafe ids to persist, sorted for a stable file.
    var unsafeEvents: [RememberedEvent] {
        unsafeIds.compactMap { id in expiries[id].map { RememberedEvent(id: id, expiresAtMs: $0) } }
            .sorted { ($0.expiresAtMs, $0.id) < ($1.expiresAtMs, $1.id) }
    }

    private mutating func evictSoonestExpiring() {
        guard let oldest = expiries.min(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { return }
        expiries[oldest.key] = nil
        unsafeIds.remove(oldest.key)
    }
}
