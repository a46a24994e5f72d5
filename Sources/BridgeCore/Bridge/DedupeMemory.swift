/// The event ids already seen, so a press delivered twice runs once.
///
/// Bounded: an id leaves once its press has expired plus a margin (no replay can
/// deliver it after that), and a hard capacity evicts the soonest-expiring first.
public struct DedupeMemory: Sendable {
    /// The most ids of unsafe actions remembered at once (they are persisted,
    /// so this bounds the id file too); past it the soonest-expiring goes first.
    public static let maxUnsafeIds = 10_000

    private(set) var expiries: [String: Int64] = [:]
    /// Ids of actions that are not safe to repeat: persisted by the shell.
    private(set) var unsafeIds: Set<String> = []
    let marginMs: Int64
    let capacity: Int

    init(marginMs: Int64, capacity: Int, remembered: [RememberedEvent]) {
        self.marginMs = marginMs
        self.capacity = max(1, capacity)
        for event in remembered.suffix(Self.maxUnsafeIds) {
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
        guard unsafeIds.insert(id).inserted else { return false }
        if unsafeIds.count > Self.maxUnsafeIds { evictSoonestExpiringUnsafe() }
        return true
    }

    /// Forgets ids whose record could not be written: their commands did not go
    /// out, so a replay must be free to run them.
    mutating func forget(_ ids: [String]) {
        for id in ids {
            expiries[id] = nil
            unsafeIds.remove(id)
        }
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

    private mutating func evictSoonestExpiringUnsafe() {
        guard let oldest = unsafeIds.min(by: { (expiries[$0] ?? 0, $0) < (expiries[$1] ?? 0, $1) }) else { return }
        expiries[oldest] = nil
        unsafeIds.remove(oldest)
    }

    private mutating func evictSoonestExpiring() {
        guard let oldest = expiries.min(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { return }
        expiries[oldest.key] = nil
        unsafeIds.remove(oldest.key)
    }
}
