/// Reconnection delays: the base delay doubled per consecutive failure, capped, plus
/// up to 50 % random jitter (then capped again) so that many clients spread out.
struct ReconnectBackoff {
    var baseDelayMs: Int
    let maxDelayMs: Int
    private(set) var consecutiveFailures = 0

    init(baseDelayMs: Int, maxDelayMs: Int) {
        self.baseDelayMs = max(1, baseDelayMs)
        self.maxDelayMs = max(1, maxDelayMs)
    }

    /// The delay before the next attempt; counts this as one more failure.
    mutating func nextDelayMs(using generator: inout some RandomNumberGenerator) -> Int {
        let capMs = max(maxDelayMs, baseDelayMs)
        var delayMs = baseDelayMs
        for _ in 0..<min(consecutiveFailures, 30) where delayMs < capMs { delayMs *= 2 }
        delayMs = min(delayMs, capMs)
        consecutiveFailures += 1
        let jitterMs = Int.random(in: 0...(delayMs / 2), using: &generator)
        return min(delayMs + jitterMs, capMs)
    }

    /// A stream was opened successfully: the next delay starts from the base again.
    mutating func recordSuccess() {
        consecutiveFailures = 0
    }
}
