@_spi(DurableRecordStore) @testable import BridgeCore
@testable import BridgeDaemon
import CurlShell
import ShellSupport
import TestSupport
import Testing

/// Issue 12 item 2's rates, on the simulated clock (issue 42 §4; they were 1 s
/// and 4 × 3 s of wall clock against the binary, `RetryAfterHostileTests`):
/// the real `BridgeRuntime` and core, a service that answers every PATCH with a
/// 429 and a hostile `Retry-After` (read by `AiviLink.outcome`, as the daemon
/// reads it), each answer 20 simulated ms after its PATCH.
@Suite("PATCH retries under the simulated clock")
struct PublishRetryUnderSimulationTests {
    /// On a 429 a huge `Retry-After` is clamped to one hour: the next PATCH comes an hour after the answer, not sooner, not never.
    @Test(arguments: ["9223372036854775807", "99999999999999999999999999"])
    func aHugeRetryAfterOnA429WaitsAnHour(_ value: String) {
        let world = RetryAfterWorld(retryAfter: value)
        world.run(forMs: 2 * 3_600_000)
        let times = world.patchTimesMs
        #expect(world.logs.contains { $0.contains("publish of w rate limited; retrying in 3600000 ms") }, "\(world.logs)")
        #expect(times.count >= 2, "the PATCH is retried after the hour: \(times)")
        if times.count >= 2 {
            #expect(times[1] - times[0] == RetryAfterWorld.answerMs + 3_600_000, "PATCHes at \(times)")
        }
    }

    /// A negative, zero or past `Retry-After` (14,000 PATCHes in 6 s once) waits at least
    /// a second: zero or past, it is clamped to 1 s; unreadable ("-5": not delay-seconds),
    /// it is ignored and the config's backoff waits (here 2 s, its lower half fixed: 1-2 s).
    @Test(arguments: [("-5", false), ("0", true), ("-9223372036854775808", false), ("Sun, 29 Nov 1970 00:00:00 GMT", true)])
    func aNegativeOrPastRetryAfterWaitsAtLeastASecond(_ value: String, isClamped: Bool) {
        let world = RetryAfterWorld(retryAfter: value)
        world.run(forMs: 6_000)
        let times = world.patchTimesMs
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect((3...6).contains(times.count), "\(times.count) PATCHes in 6 s, gaps \(gaps)")
        #expect(gaps.allSatisfy { $0 >= 1_000 && $0 <= 2_000 + RetryAfterWorld.answerMs }, "gaps \(gaps)")
        if isClamped {
            #expect(gaps.allSatisfy { $0 == 1_000 + RetryAfterWorld.answerMs }, "clamped to 1 s: gaps \(gaps)")
            #expect(world.logs.contains { $0.contains("publish of w rate limited; retrying in 1000 ms") }, "\(world.logs)")
        }
    }
}

/// The runtime on a simulated clock, a broker that takes every publish and a
/// service that refuses every PATCH with 429 and `Retry-After: retryAfter`.
final class RetryAfterWorld: @unchecked Sendable {
    static let answerMs: Int64 = 20
    static let config = RuntimeSimWorld.load("""
        aivi:
          token_env: AIVI_TOKEN
        timing:
          publish_retry_initial_ms: 2000
          publish_retry_cap_ms: 2000
        widgets:
          - slug: w
            actions:
              - id: fan
                label: Fan
                kind: toggle
                state_topic: home/fan/state
                command_topic: home/fan/set

        """)

    let clock = SimulatedBoardClock()
    let disk: SimulatedDisk
    let retryAfter: String
    var runtime: BridgeRuntime?
    /// When each PATCH was sent (simulated monotonic ms).
    var patchTimesMs: [Int64] = []
    var logs: [String] = []
    /// Answers due: (at ms, completion).
    var answers: [(atMs: Int64, complete: () -> Void)] = []

    init(retryAfter: String) {
        self.retryAfter = retryAfter
        disk = SimulatedDisk(clock: clock)
        let ports = RuntimePorts(
            publishMQTT: { _ in }, setSubscriptions: { _ in },
            sendPatch: { [unowned self] request, completion in patchSent(completion) },
            unsafeEventRecorder: disk, reloadConfig: { Self.config },
            log: { [unowned self] _, message in logs.append(message.text) })
        let runtime = BridgeRuntime(bridge: Bridge(config: Self.config, randomSeed: 1), ports: ports, clock: clock.clock)
        self.runtime = runtime
        runtime.start()
        _ = runtime.submit(.core(.mqttConnected))
        runtime.submitMQTTMessage(topic: "home/fan/state", payload: Array("ON".utf8))
    }

    func patchSent(_ completion: @escaping @Sendable (PatchOutcome) -> Void) {
        patchTimesMs.append(clock.monotonicMs)
        let response = HTTPClientResponse(status: 429, headers: ["retry-after": retryAfter], body: [])
        answers.append((clock.monotonicMs + Self.answerMs, { completion(AiviLink.outcome(.response(response))) }))
    }

    /// Wakes the runtime at each of its deadlines and each answer, for `forMs` from the first PATCH.
    func run(forMs durationMs: Int64) {
        guard let runtime else { return }
        runtime.runOneWake(waits: false)
        var endMs = clock.monotonicMs + durationMs
        for _ in 0..<10_000 {
            if patchTimesMs.count == 1, let first = patchTimesMs.first { endMs = first + durationMs }
            let nextMs = [runtime.nextWakeAtMs, answers.map(\.atMs).min()].compactMap { $0 }.min()
            guard let nextMs, nextMs <= endMs else { return }
            clock.advance(toMonotonicMs: nextMs)
            let due = answers.filter { $0.atMs <= clock.monotonicMs }
            answers.removeAll { $0.atMs <= clock.monotonicMs }
            for answer in due { answer.complete() }
            runtime.runOneWake(waits: false)
        }
        Issue.record("more than 10,000 wakes: a hot loop (PATCHes at \(patchTimesMs.prefix(20)))")
    }
}
