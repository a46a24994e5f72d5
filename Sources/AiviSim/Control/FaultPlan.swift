/// The failures a test has asked the simulator to produce.
struct FaultPlan: Sendable {
    /// How many coming PATCHes fail, and how.
    var failingPatchCount = 0
    var failingPatchStatus = 500
    var failingRetryAfterSeconds: Int?
    /// How many coming PATCHes get no answer: their connection is reset.
    var resettingPatchCount = 0
    /// Real-time delay before every PATCH answer.
    var answerDelayMs = 0
    /// Events are sent this long after they were created (simulator clock).
    var eventDelayMs: Int64 = 0
    /// How many coming event deliveries are sent twice.
    var duplicateDeliveryCount = 0

    /// Takes one injected PATCH failure, if any is left.
    mutating func takePatchFailure() -> (status: Int, retryAfterSeconds: Int?)? {
        guard failingPatchCount > 0 else { return nil }
        failingPatchCount -= 1
        return (failingPatchStatus, failingRetryAfterSeconds)
    }

    /// Takes one injected reset, if any is left.
    mutating func takePatchReset() -> Bool {
        guard resettingPatchCount > 0 else { return false }
        resettingPatchCount -= 1
        return true
    }

    /// Whether the next delivery goes out twice (counts it).
    mutating func takeDuplicate() -> Bool {
        guard duplicateDeliveryCount > 0 else { return false }
        duplicateDeliveryCount -= 1
        return true
    }
}

/// How an open event stream is being made to fail.
public enum StreamDropMode: String, Sendable {
    /// End the response cleanly and close the connection.
    case close
    /// Stop sending anything (keepalives included) but keep the socket open.
    case halfOpen = "half_open"
}

/// Frames that break the contract or extend it, injected into open streams.
public enum InjectedEventKind: String, Sendable {
    /// `event: widget.action.v1` with a `data:` line that is not JSON.
    case malformed
    /// A well-formed event of a type the bridge does not know.
    case unknownType = "unknown_type"

    func frame(sequence: Int, nowMs: Int64) -> String {
        switch self {
        case .malformed:
            return "id: evt_malformed_\(sequence)\nevent: widget.action.v1\ndata: {\"id\":\"evt_malformed_\(sequence)\",\"type\":\n\n"
        case .unknownType:
            let time = SimTimeFormat.iso8601(ms: nowMs)
            return "id: evt_unknown_\(sequence)\nevent: widget.unknown.v9\n"
                + "data: {\"id\":\"evt_unknown_\(sequence)\",\"type\":\"widget.unknown.v9\",\"created_at\":\"\(time)\",\"data\":{}}\n\n"
        }
    }
}

/// One open event stream as the simulator steers it.
struct StreamControl: Sendable {
    static let maxPendingFrames = 100
    var dropMode: StreamDropMode?
    var injectedFrames: [String] = []
}
