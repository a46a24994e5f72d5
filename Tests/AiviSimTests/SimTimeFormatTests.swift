import AiviSim
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
        #expect(ManualClock().nowMs == 1_795_986_000_000)
    }
}
