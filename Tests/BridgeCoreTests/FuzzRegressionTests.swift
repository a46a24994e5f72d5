import Testing
@testable import BridgeCore

/// Inputs the fuzz targets (`fuzz/`) found crashing, each replayed on the code the
/// target drives. They crashed before their fix; see `fuzz/RUNS.md`.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// `http-date`, in under a minute: a 15-digit year overflowed the milliseconds
    /// (a trap on every reconnect of the event stream).
    @Test func httpDateWithAHugeYearIsRefused() {
        let text = "T 1 Jan 191000000000000 00:0:00 GMT"
        #expect(HTTPDate.milliseconds(from: text) == nil)
        #expect(HTTPDate.serverClockOffsetMs(dateHeader: text, receivedAtMs: 1_795_986_000_000) == nil)
    }
}
