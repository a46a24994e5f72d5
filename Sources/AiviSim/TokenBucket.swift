/// A burst of `capacity` then one per `refillMs`, in exact integer arithmetic:
/// the level is kept in milliseconds of refill, a press costs `refillMs`.
struct TokenBucket: Sendable {
    let capacity: Int64
    let refillMs: Int64
    private var levelMs: Int64
    private var updatedAtMs: Int64

    init(capacity: Int64, refillMs: Int64, nowMs: Int64) {
        self.capacity = capacity
        self.refillMs = refillMs
        levelMs = capacity * refillMs
        updatedAtMs = nowMs
    }

    /// Whether a press can be taken at `nowMs`.
    mutating func canTake(nowMs: Int64) -> Bool {
        refill(nowMs: nowMs)
        return levelMs >= refillMs
    }

    /// Takes one press (call after `canTake` said yes).
    mutating func take(nowMs: Int64) {
        refill(nowMs: nowMs)
        levelMs -= refillMs
    }

    private mutating func refill(nowMs: Int64) {
        let elapsedMs = max(0, nowMs - updatedAtMs)
        levelMs = min(capacity * refillMs, levelMs + elapsedMs)
        updatedAtMs = max(updatedAtMs, nowMs)
    }
}
