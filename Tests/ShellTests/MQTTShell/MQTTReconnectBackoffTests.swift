import BridgeCore
@testable import MQTTShell
import Testing

/// Issue 23: MQTT's reconnect had no jitter (500 ms, 1 s, 2 s ... exactly, every
/// bridge of a house in step after a broker restart); it is the one `Backoff` now.
/// Its rules (floors, doubling, cap, short connections, reset) played through the
/// client on a simulated clock: `MQTTReconnectUnderSimulationTests`.
@Suite("MQTT reconnect backoff")
struct MQTTReconnectBackoffTests {
    @Test func reconnectsAndRecreationsBackOffWithTheOneJitteredBackoff() {
        var settings = MQTTShell.MQTTSettings(host: "127.0.0.1", clientId: "backoff")
        settings.reconnectDelayMinMs = 500
        settings.reconnectDelayMaxMs = 30_000
        settings.fatalRetryDelayMs = 10_000
        #expect(MQTTReconnectSchedule(settings: settings).reconnectBackoff == Backoff(initialMs: 500, capMs: 30_000))
        #expect(MQTTReconnectSchedule(settings: settings).fatalBackoff == Backoff(initialMs: 10_000, capMs: 300_000))
        func delays(seed: UInt64) -> [Int64] {
            settings.jitterSeed = seed
            var schedule = MQTTReconnectSchedule(settings: settings)
            return (0..<12).map { index in
                index % 4 == 3 ? schedule.fatalDelayMs() : schedule.reconnectDelayMs(afterEndAtMs: 0)
            }
        }
        #expect(delays(seed: 9) == delays(seed: 9), "the seed decides the jitter")
        #expect(delays(seed: 9) != delays(seed: 10))
        #expect(Set((1...8).map { delays(seed: $0)[0] }).count > 1, "the first delay varies")
        #expect(delays(seed: 9).enumerated().allSatisfy { index, delayMs in
            let ceilingMs: Int64 = index % 4 == 3 ? 10_000 << (index / 4) : min(30_000, 500 << (index - index / 4))
            return delayMs >= ceilingMs / 2 && delayMs <= ceilingMs
        }, "\(delays(seed: 9))")
    }

    /// Fatal errors (a failed name lookup, a TLS error, a refused CONNECT, a protocol
    /// error) used to be counted for the process's whole life: after a few DNS blips
    /// over months, the next one waited 150-300 s. A connection that stayed up a
    /// minute starts the fatal count over, whether it was lost or ended by a fatal
    /// error; a broker that accepts and drops within the minute does not.
    @Test(arguments: [false, true])
    func aLongConnectionStartsTheFatalBackoffOver(endedByAFatalError: Bool) {
        var settings = MQTTShell.MQTTSettings(host: "127.0.0.1", clientId: "fatal-reset")
        settings.fatalRetryDelayMs = 10_000
        var schedule = MQTTReconnectSchedule(settings: settings)
        func end(afterMs durationMs: Int64, startingAtMs startMs: Int64) {
            schedule.connected(atMs: startMs)
            if endedByAFatalError {
                schedule.connectionEnded(atMs: startMs + durationMs)
                schedule.forgetConnection()
            } else {
                _ = schedule.reconnectDelayMs(afterEndAtMs: startMs + durationMs)
            }
        }
        for _ in 0..<5 { _ = schedule.fatalDelayMs() }
        end(afterMs: MQTTReconnectSchedule.fatalResetConnectionMs - 1, startingAtMs: 1_000)
        #expect(schedule.fatalDelayMs() >= 150_000, "a shorter connection keeps the fatal count")
        end(afterMs: MQTTReconnectSchedule.fatalResetConnectionMs, startingAtMs: 100_000)
        let delayMs = schedule.fatalDelayMs()
        #expect((5_000...10_000).contains(delayMs), "after a long connection the fatal wait starts over: \(delayMs) ms")
    }
}
