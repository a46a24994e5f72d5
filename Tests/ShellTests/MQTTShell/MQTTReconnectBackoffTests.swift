import BridgeCore
@testable import MQTTShell
import Testing

/// Issue 23: MQTT's reconnect had no jitter (500 ms, 1 s, 2 s ... exactly, every
/// bridge of a house in step after a broker restart); it is the one `Backoff` now.
@Suite("MQTT reconnect backoff")
struct MQTTReconnectBackoffTests {
    @Test func reconnectsAndRecreationsBackOffWithTheOneJitteredBackoff() {
        var settings = MQTTShell.MQTTSettings(host: "127.0.0.1", clientId: "backoff")
        settings.reconnectDelayMinMs = 500
        settings.reconnectDelayMaxMs = 30_000
        settings.fatalRetryDelayMs = 10_000
        #expect(MQTTClient.reconnectBackoff(settings) == Backoff(initialMs: 500, capMs: 30_000))
        #expect(MQTTClient.fatalBackoff(settings) == Backoff(initialMs: 10_000, capMs: 300_000))
        settings.jitterSeed = 9
        let first = MQTTClient(settings: settings) { _ in }
        let again = MQTTClient(settings: settings) { _ in }
        settings.jitterSeed = 10
        let other = MQTTClient(settings: settings) { _ in }
        let backoff = MQTTClient.reconnectBackoff(settings)
        let delays = (0..<12).map { first.nextDelayMs(backoff, retry: $0 % 3) }
        #expect(delays == (0..<12).map { again.nextDelayMs(backoff, retry: $0 % 3) }, "the seed decides the jitter")
        #expect(delays != (0..<12).map { other.nextDelayMs(backoff, retry: $0 % 3) })
        #expect(Set(delays.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)).count > 1, "the first delay varies")
        #expect(delays.enumerated().allSatisfy { index, delayMs in
            let ceilingMs = 500 << (index % 3)
            return delayMs >= ceilingMs / 2 && delayMs <= ceilingMs
        })
    }
}
