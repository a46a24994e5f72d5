/// The publishing state of one widget: at most one PATCH in flight, the last
/// body the service acknowledged, a retry schedule, whether a press is owed
/// an answer even if the content did not change, and the politeness interval.
///
/// Politeness: a PATCH that only carries state changes starts at least the
/// widget's `min_publish_interval_ms` after the previous PATCH started. The
/// interval is a timer (the shell's clock is monotonic), not arithmetic on the
/// wall clock, so a clock step can neither stall nor shorten it. A change that
/// comes inside the interval waits for its end, when the latest content goes
/// out (one trailing PATCH, however many changes came); an answer to a press
/// goes at once. The timer is quiet (`BridgeTimer.isQuiet`): the core asks the
/// shell to wake at its end only when a change is actually held back.
struct WidgetPublisher: Sendable {
    struct InFlight: Sendable {
        var requestId: UInt64
        var body: String
        /// Answers owed up to this generation are delivered if this succeeds.
        var coversAnswerGeneration: UInt64
        /// `ActionStates.version` when `body` was rendered.
        var statesVersion: UInt64
    }

    var lastAcknowledgedBody: String?
    var inFlight: InFlight?
    var isRetryScheduled = false
    var consecutiveFailures = 0
    /// Set when a press must be answered by a publish; the generation at which
    /// it was owed, so an older PATCH in flight does not clear a newer debt.
    var answerOwedGeneration: UInt64?
    /// The permanent error already logged in this failure streak.
    var loggedPermanentStatus: Int?
    /// A PATCH started less than the minimum publish interval ago (the
    /// `.publishInterval` timer runs): state-only publishes wait for its end.
    var isInPublishInterval = false
    /// A change is held back inside the interval: the shell was asked to wake at its end.
    var isIntervalWakeRequested = false
    /// An `ActionStates.version` at which the widget rendered `lastAcknowledgedBody`:
    /// while the states stay at it there is nothing new to send (nil: unknown).
    var acknowledgedStatesVersion: UInt64?
    /// The widget's minimum spacing of state-only PATCHes: its own setting, else
    /// the `timing` default; 0 means none (set at config load, `Bridge.adoptWidgets`).
    var minPublishIntervalMs: Int64 = 0
    /// The widget's last render by its template (`Bridge.currentBody`), kept with
    /// what it publishes so a publish looks up one thing; cleared at config load.
    var lastRender: Bridge.RenderedBody?

    /// No PATCH in flight and no retry waiting: checked before rendering, which
    /// is most of the cost of a burst.
    var isFreeToSend: Bool { inFlight == nil && !isRetryScheduled }

    /// Free to send, and either owed an answer or past the publish interval:
    /// also checked before rendering, so a flapping device costs no rendering
    /// inside the interval.
    var mayStartPatch: Bool { isFreeToSend && (answerOwedGeneration != nil || !isInPublishInterval) }

    /// Free to send and owed no answer, but inside the publish interval: a
    /// state-only change waits for its end.
    var isHeldByInterval: Bool { isFreeToSend && answerOwedGeneration == nil && isInPublishInterval }

    /// Nothing to send without rendering: no answer owed and the states are
    /// still those the acknowledged body was rendered from.
    func hasNothingNew(statesVersion: UInt64) -> Bool {
        answerOwedGeneration == nil && acknowledgedStatesVersion == statesVersion
    }

    /// Whether a PATCH should start now for `body`.
    func shouldSend(_ body: String) -> Bool {
        mayStartPatch && (body != lastAcknowledgedBody || answerOwedGeneration != nil)
    }

    /// The publish interval's timer fired: state-only publishes may go again
    /// (one write of the publisher where it is kept, not one per field).
    mutating func endPublishInterval() {
        isInPublishInterval = false
        isIntervalWakeRequested = false
    }

    mutating func acknowledge(_ sent: InFlight) {
        lastAcknowledgedBody = sent.body
        acknowledgedStatesVersion = sent.statesVersion
        consecutiveFailures = 0
        loggedPermanentStatus = nil
        if let owed = answerOwedGeneration, owed <= sent.coversAnswerGeneration { answerOwedGeneration = nil }
    }
}

/// How the bridge treats a PATCH outcome.
enum PatchVerdict: Equatable {
    case success
    /// 429; the server's `Retry-After`, clamped, when it sent one.
    case rateLimited(retryAfterMs: Int64?)
    /// Retrying the same body will not help (400, 401, 403, 404, 413, ...).
    case permanent(status: Int)
    /// Worth retrying; after the server's `Retry-After` (503 only, clamped) when
    /// it sent one, else after the backoff.
    case transient(reason: String, retryAfterMs: Int64? = nil)

    /// `Retry-After` is honoured on 429 and 503 only, always within
    /// `RetryAfter.minimumMs...RetryAfter.maximumMs`.
    init(_ outcome: PatchOutcome) {
        switch outcome {
        case .status(let status, let retryAfterMs, _):
            let honouredMs = retryAfterMs.map(RetryAfter.clampedMs)
            switch status {
            case 200..<300: self = .success
            case 429: self = .rateLimited(retryAfterMs: honouredMs)
            case 503: self = .transient(reason: "HTTP 503", retryAfterMs: honouredMs)
            case 408: self = .transient(reason: "HTTP 408")
            case 300..<500: self = .permanent(status: status)
            default: self = .transient(reason: "HTTP \(status)")
            }
        case .transportFailure(let reason): self = .transient(reason: reason)
        }
    }

    /// What to tell the homeowner about a permanent error.
    static func hint(forStatus status: Int) -> String {
        switch status {
        case 401, 403: return "check the API token (aivi.token_file or the aivi-token credential)"
        case 404: return "no widget with this slug on the account: create it in the Aivi app or fix the slug"
        case 400: return "the service refused the content: check the action fields in the config"
        case 413: return "the content is too large: fewer actions or shorter fields"
        case 300..<400: return "the API answered with a redirect: check aivi.api in the config"
        default: return "the service refused the request"
        }
    }
}
