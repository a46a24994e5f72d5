/// The last press of one action as the bridge handled it, for the status page.
public struct PressFact: Sendable, Equatable {
    /// The event id, cut for display (`LogExcerpt.id`).
    public var eventId: String
    /// The board clock when the press arrived.
    public var atMs: Int64
    /// The state a toggle press asked for; nil for buttons.
    public var requestedOn: Bool?
    public var outcome: PressFactOutcome

    public init(eventId: String, atMs: Int64, requestedOn: Bool?, outcome: PressFactOutcome) {
        self.eventId = eventId
        self.atMs = atMs
        self.requestedOn = requestedOn
        self.outcome = outcome
    }
}

/// How a press ended (or where it waits), in the words the status page shows.
public enum PressFactOutcome: Sendable, Equatable {
    /// The command went out; the bridge waits for the device to confirm it.
    case commanded
    /// The device confirmed the asked state (a button: turned active) this long after the command.
    case confirmed(afterMs: Int64)
    /// No confirmation: the true state was published after this long.
    case answeredWithTruth(afterMs: Int64)
    /// A toggle already in the asked state: answered at once.
    case alreadyInState
    /// The device was unreachable: answered with its true state, no command.
    case deviceUnavailable
    /// A button's messages went out.
    case published(messageCount: Int)
    /// A scene's tiles not yet in its state were commanded (`tiles` of `of`).
    case sceneCommanded(tiles: Int, of: Int)
    /// Not carried out, for this reason.
    case refused(String)
    /// Arrived after its expiry on the server's clock.
    case expired(lateMs: Int64)
    /// A second delivery of a press already handled.
    case duplicate

    /// "commanded, waiting for the device", "confirmed after 120 ms", ...
    public var words: String {
        switch self {
        case .commanded: return "commanded, waiting for the device"
        case .confirmed(let afterMs): return "confirmed by the device after \(afterMs) ms"
        case .answeredWithTruth(let afterMs): return "no confirmation: answered with the true state after \(AgeText.duration(ms: afterMs))"
        case .alreadyInState: return "already in that state: answered at once"
        case .deviceUnavailable: return "device unavailable: answered with its true state"
        case .published(let count): return "commanded (\(count) message(s) published)"
        case .sceneCommanded(let tiles, let of): return "scene: \(tiles) of \(of) tile(s) commanded, the others already there or skipped"
        case .refused(let reason): return "refused: \(reason)"
        case .expired(let lateMs): return "expired \(lateMs) ms ago on the server's clock: not carried out"
        case .duplicate: return "duplicate delivery: already handled"
        }
    }
}
