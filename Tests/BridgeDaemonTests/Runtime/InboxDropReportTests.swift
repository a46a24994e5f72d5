import BridgeCore
import Testing

@testable import BridgeDaemon

/// Issue 12, item 7: "inbox full" coalesced: the first drop at once, then at most
/// one line per 10 s with the running total.
@Suite struct InboxDropReportTests {
    struct Step: Sendable {
        let atMs: Int64
        let dropped: Int
        let report: String?
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [Step]
        var testDescription: String { name }
    }

    static let first = "inbox full: 3 inputs dropped; further drops are summed up every 10 s"

    static let scenarios: [Scenario] = [
        Scenario(name: "no drops, no report", steps: [Step(atMs: 0, dropped: 0, report: nil), Step(atMs: 60_000, dropped: 0, report: nil)]),
        Scenario(name: "the first drop is reported at once", steps: [Step(atMs: 5, dropped: 3, report: first)]),
        Scenario(name: "drops within 10 s wait, then come with the total", steps: [
            Step(atMs: 0, dropped: 3, report: first),
            Step(atMs: 1, dropped: 100, report: nil),
            Step(atMs: 9_999, dropped: 200, report: nil),
            Step(atMs: 10_000, dropped: 0, report: "inbox full: 300 more inputs dropped (303 since start)"),
            Step(atMs: 10_001, dropped: 7, report: nil),
            Step(atMs: 25_000, dropped: 1, report: "inbox full: 8 more inputs dropped (311 since start)"),
        ]),
        Scenario(name: "after a quiet spell the next drop is reported at once", steps: [
            Step(atMs: 0, dropped: 3, report: first),
            Step(atMs: 50_000, dropped: 0, report: nil),
            Step(atMs: 50_001, dropped: 2, report: "inbox full: 2 more inputs dropped (5 since start)"),
        ]),
    ]

    @Test(arguments: scenarios)
    func coalescesDrops(_ scenario: Scenario) {
        var report = InboxDropReport()
        for (index, step) in scenario.steps.enumerated() {
            let message = report.note(droppedCount: step.dropped, nowMs: step.atMs)
            #expect(message?.text == step.report, "step \(index)")
            #expect(message.map { !$0.isRateLimited } ?? true, "bounded here, so exempt from the log's limit")
        }
    }

    @Test func tellsTheLoopWhenAPendingReportIsDue() {
        var report = InboxDropReport()
        #expect(report.msUntilDue(nowMs: 0) == nil)
        _ = report.note(droppedCount: 1, nowMs: 1_000)
        #expect(report.msUntilDue(nowMs: 1_000) == nil)
        _ = report.note(droppedCount: 5, nowMs: 4_000)
        #expect(report.msUntilDue(nowMs: 4_000) == 7_000)
        #expect(report.report(nowMs: 11_000)?.text == "inbox full: 5 more inputs dropped (6 since start)")
        #expect(report.msUntilDue(nowMs: 11_000) == nil)
    }

    /// A flood of a million drops in 100 ms batches for a minute writes 6 lines.
    @Test func aLongFloodWritesALineEveryTenSeconds() {
        var report = InboxDropReport()
        var lines = 0
        for batch in 0..<600 {
            if report.note(droppedCount: 1_700, nowMs: Int64(batch) * 100) != nil { lines += 1 }
        }
        #expect(lines == 6)
        #expect(report.totalDropped == 1_020_000)
    }
}
