/// One widget's publishing over time, for the status page: the last PATCH and
/// how it ended, the service's last refusal and its `Retry-After`.
public struct PublishFacts: Sendable, Equatable {
    /// Board clock of the last PATCH answer (or transport failure).
    public var lastFinishedAtMs: Int64?
    /// Board clock of the last acknowledged PATCH.
    public var lastAcknowledgedAtMs: Int64?
    /// The last failure, in words ("HTTP 429", "HTTP 400: the service said ..."); cleared by a success.
    public var lastError: String?
    /// The wait the service asked for with its last failure, honoured and clamped.
    public var retryAfterMs: Int64?

    public init() {}

    /// Records how a PATCH ended at `atMs`.
    mutating func record(_ outcome: PatchOutcome, atMs: Int64) {
        lastFinishedAtMs = atMs
        switch PatchVerdict(outcome) {
        case .success:
            lastAcknowledgedAtMs = atMs
            lastError = nil
            retryAfterMs = nil
        case .rateLimited(let retryAfter):
            lastError = "HTTP 429 (rate limited)"
            retryAfterMs = retryAfter
        case .permanent(let status):
            var said = ""
            if case .status(_, _, let reason?) = outcome { said = ": the service said \"\(LogExcerpt.text(reason))\"" }
            lastError = "HTTP \(status)\(said); \(PatchVerdict.hint(forStatus: status))"
            retryAfterMs = nil
        case .transient(let reason, let retryAfter):
            lastError = LogExcerpt.text(reason)
            retryAfterMs = retryAfter
        }
    }
}
