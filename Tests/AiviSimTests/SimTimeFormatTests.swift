import AiviSim
import ShellSupport
import Testing

@Suite struct SimTimeFormatTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z", "Thu, 01 Jan 1970 00:00:00 GMT"),
        (784_111_777_000, "1994-11-06T08:49:37.000Z", "Sun, 06 Nov 1994 08:49:37 GMT"),
        (951_782_400_999, "2000-02-29T00:00:00.999Z", "Tue, 29 Feb 2000 00:00:00 GMT"),
        (1_795_986_000_120, "2026-11-29T21:00:00.120Z", "Sun, 29 Nov 2026 21:00:00 GMT"),
        (-1, "1969-12-31T23:59:59.999Z", "Wed, 31 Dec 1969 23:59:59 GMT"),
    ])
    func formatsInstants(ms: Int64, iso: String, http: String) {
        #expect(SimTimeFormat.iso8601(ms: ms) == iso)
        #expect(SimTimeFormat.httpDate(ms: ms) == http)
    }

    @Test func computesEpochMilliseconds() {
        #expect(SimTimeFormat.epochMs(year: 2026, month: 11, day: 29, hour: 21, ms: 120) == 1_795_986_000_120)
        #expect(SimTimeFormat.epochMs(year: 2000, month: 2, day: 29) == 951_782_400_000)
        #expect(SimulatedBoardClock.service().nowMs == 1_795_986_000_000)
    }

    /// The simulator's manual clock is the board's simulated one (issue 42 §4: one manual
    /// clock): its wall clock is the service's, moves by `advance` only, and saturates.
    @Test func theManualServiceClockIsTheSimulatedBoardsWallClock() {
        let clock = SimulatedBoardClock.service(startMs: 5_000)
        let service: any SimClock = clock
        clock.advance(byMs: 1_500)
        clock.advance(byMs: -9_000)
        #expect(service.nowMs == 6_500)
        #expect(clock.now.wallClockEpochMs == 6_500 && clock.monotonicMs == 2_500)
        clock.advance(byMs: Int64.max)
        clock.advance(toMonotonicMs: Int64.min)
        #expect(service.nowMs == Int64.max)
        #expect(clock.now.monotonicUs == Int64.max)
    }
}
