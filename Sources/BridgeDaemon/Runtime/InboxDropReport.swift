import BridgeCore

/// Coalesces the runtime's "inbox full" reports, so a flood that overfills the
/// inbox writes a few lines, not one per batch: the first drop is reported at
/// once, later ones at most once per `intervalMs`, with the count since the last
/// report and the running total. Pure: time is passed in.
struct InboxDropReport {
    /// Shortest time between two reports.
    static let intervalMs: Int64 = 10_000

    /// Inputs dropped since start.
    private(set) var totalDropped = 0
    /// Dropped since the last report.
    private(set) var unreportedCount = 0
    private var lastReportMs: Int64?

    /// Counts `droppedCount` more drops; the report to write now, if one is due.
    mutating func note(droppedCount: Int, nowMs: Int64) -> LogMessage? {
        guard droppedCount > 0 else { return report(nowMs: nowMs) }
        totalDropped += droppedCount
        unreportedCount += droppedCount
        return report(nowMs: nowMs)
    }

    /// Milliseconds until a pending report is due (nil: nothing pending).
    func msUntilDue(nowMs: Int64) -> Int64? {
        guard unreportedCount > 0 else { return nil }
        guard let lastReportMs else { return 0 }
        return max(0, Self.intervalMs - (nowMs - lastReportMs))
    }

    /// The report to write now, if drops are pending and the interval has passed.
    /// Exempt from the log's own limit: its rate is bounded here.
    mutating func report(nowMs: Int64) -> LogMessage? {
        guard let waitMs = msUntilDue(nowMs: nowMs), waitMs == 0 else { return nil }
        let message: LogMessage = lastReportMs == nil
            ? "inbox full: \(unreportedCount) inputs dropped; further drops are summed up every \(Self.intervalMs / 1_000) s"
            : "inbox full: \(unreportedCount) more inputs dropped (\(totalDropped) since start)"
        lastReportMs = nowMs
        unreportedCount = 0
        return message.exemptFromRateLimit
    }
}
