/// A burst of `capacity` then one per `refillMs`, in exact integer arithmetic:
/// the level is kept in milliseconds of refill, a take costs `refillMs`. The
/// simulator's rate limits of the service and the bridge's own per-action limit.
///
/// A clock that steps back (the board's wall clock, NTP) neither refills nor
/// stalls the bucket: the time before the step counts as nothing.
public struct TokenBucket: Sendable {
    public let capacity: Int64
    public let refillMs: Int64
    private var levelMs: Int64
    private var updatedAtMs: Int64

    /// A full bucket at `nowMs`.
    public init(capacity: Int64, refillMs: Int64, nowMs: Int64) {
        self.capacity = capacity
        self.refillMs = refillMs
        levelMs = capacity.multipliedSaturating(by: refillMs)
        updatedAtMs = nowMs
    }

    /// Whether one can be taken at `nowMs`.
    public mutating func canTake(nowMs: Int64) -> Bool {
        refill(nowMs: nowMs)
        return levelMs >= refillMs
    }

    /// Takes one (call after `canTake` said yes).
    public mutating func take(nowMs: Int64) {
        refill(nowMs: nowMs)
        levelMs -= refillMs
    }

    private mutating func refill(nowMs: Int64) {
        let elapsedMs = max(0, nowMs.subtractingSaturating(updatedAtMs))
        levelMs = min(capacity.multipliedSaturating(by: refillMs), levelMs.addingSaturating(elapsedMs))
        updatedAtMs = nowMs
    }
}
