/// The one retry backoff of the bridge (PATCH retries, MQTT reconnects and
/// client recreation, the event stream's reconnects): `initialMs` doubled per
/// earlier retry up to `capMs`, of which the lower half is fixed and the upper
/// half random, so many bridges (or one bridge's clients) do not retry in step.
/// The random half comes from the caller's generator: the core's seeded
/// `SplitMix64`, so a simulation replays it. Overflow-safe for any input.
public struct Backoff: Sendable, Equatable {
    /// The first delay's ceiling, at least 1.
    public var initialMs: Int64
    /// No delay exceeds this (at least `initialMs`).
    public var capMs: Int64

    public init(initialMs: Int64, capMs: Int64) {
        self.initialMs = max(1, initialMs)
        self.capMs = max(self.initialMs, capMs)
    }

    /// The ceiling of retry number `retry` (0: the first): `initialMs` doubled
    /// `retry` times, at most `capMs`.
    public func ceilingMs(retry: Int) -> Int64 {
        min(capMs, initialMs.doubledSaturating(times: min(max(0, retry), 64)))
    }

    /// The delay before retry number `retry` (0: the first): between half its
    /// ceiling and the ceiling.
    public func delayMs<Random: RandomNumberGenerator>(retry: Int, using random: inout Random) -> Int64 {
        let halfMs = max(1, ceilingMs(retry: retry) / 2)
        return halfMs + Int64.random(in: 0...halfMs, using: &random)
    }
}
