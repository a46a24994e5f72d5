import BridgeCore
import Testing

/// The one backoff (issue 23): PATCH retries, MQTT reconnects and recreation,
/// the event stream's reconnects all wait `Backoff`'s delays, jittered from a
/// seeded generator so the simulation replays them.
@Suite("Backoff")
struct BackoffTests {
    @Test func ceilingsDoubleUpToTheCap() {
        let backoff = Backoff(initialMs: 500, capMs: 30_000)
        #expect((0..<9).map { backoff.ceilingMs(retry: $0) } == [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000])
    }

    @Test(arguments: [0, 1, 5, 30, 63, 64, 1_000, Int.max, -1, Int.min])
    func delaysStayBetweenHalfTheCeilingAndTheCeilingForAnyRetry(retry: Int) {
        var random = SplitMix64(seed: 7)
        for backoff in [Backoff(initialMs: 500, capMs: 30_000), Backoff(initialMs: Int64.max, capMs: Int64.max),
                        Backoff(initialMs: 0, capMs: -5), Backoff(initialMs: 1, capMs: 1)] {
            let ceilingMs = backoff.ceilingMs(retry: retry)
            for _ in 0..<100 {
                let delayMs = backoff.delayMs(retry: retry, using: &random)
                #expect(delayMs >= max(1, ceilingMs / 2) && delayMs <= max(1, ceilingMs / 2) * 2, "\(backoff) retry \(retry): \(delayMs)")
            }
        }
    }

    @Test func theJitterIsTheSeedsAndSpreads() {
        let backoff = Backoff(initialMs: 1_000, capMs: 60_000)
        func delays(seed: UInt64) -> [Int64] {
            var random = SplitMix64(seed: seed)
            return (0..<20).map { backoff.delayMs(retry: $0 % 4, using: &random) }
        }
        #expect(delays(seed: 42) == delays(seed: 42), "one seed, one sequence: the simulation replays it")
        #expect(delays(seed: 42) != delays(seed: 43))
        var random = SplitMix64(seed: 1)
        let firstDelays = Set((0..<200).map { _ in backoff.delayMs(retry: 0, using: &random) })
        #expect(firstDelays.count > 100, "two clients do not retry in step")
        #expect(firstDelays.allSatisfy { (500...1_000).contains($0) })
    }

    @Test func theCapIsAtLeastTheFirstDelay() {
        #expect(Backoff(initialMs: 120_000, capMs: 30_000).ceilingMs(retry: 3) == 120_000)
    }
}
