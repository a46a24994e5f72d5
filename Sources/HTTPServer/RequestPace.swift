/// How many requests a server takes a second, with a burst (issue 38 item 7:
/// a flood of page requests costs the loop a bounded share): the generic cell
/// rate algorithm, on the loop's clock. While over the pace the server neither
/// reads requests nor accepts connections (the kernel holds them), so a flood
/// waits in its clients instead of spinning the loop; answers already made
/// still go out.
struct RequestPace {
    let intervalMs: Int64
    let burstMs: Int64
    /// When the next request would be on time (the theoretical arrival time).
    private var onTimeAtMs: Int64 = Int64.min / 2

    init(requestsPerSecond: Int, burst: Int) {
        intervalMs = max(1, 1_000 / Int64(max(1, requestsPerSecond)))
        burstMs = intervalMs * Int64(max(1, burst))
    }

    /// Whether a request may be taken at `nowMs`.
    func allows(nowMs: Int64) -> Bool { onTimeAtMs - nowMs < burstMs }

    /// When the next request may be taken (for the loop's deadline).
    func nextAllowedMs(nowMs: Int64) -> Int64 { max(nowMs, onTimeAtMs - burstMs + 1) }

    /// Counts a request taken at `nowMs`.
    mutating func take(nowMs: Int64) { onTimeAtMs = max(onTimeAtMs, nowMs) + intervalMs }
}
