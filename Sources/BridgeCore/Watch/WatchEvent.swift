/// One message as `watch` explains it to one action.
public struct WatchEvent: Sendable, Equatable {
    public var elapsedMs: Int64
    public var action: ActionKey
    /// `state`, `availability`, `gateway` or `active`.
    public var role: String
    public var topic: String
    public var payloadExcerpt: String
    public var verdict: MessageVerdict
    /// What the action drives: a cover's `on` reads "open", a lock's "locked".
    public var device: TileDevice = .plainSwitch

    /// What the reading means for this action (`open`, `opening`, `at 47 %`, `jammed`).
    public var word: String { Self.word(for: verdict, device: device) }

    /// What `verdict` means for an action driving `device`.
    public static func word(for verdict: MessageVerdict, device: TileDevice) -> String {
        guard device != .plainSwitch else { return verdict.word }
        switch verdict {
        case .on: return device.word(on: true)
        case .off, .protectiveOff: return device.word(on: false)
        case .position(let percent?) where percent == 100: return "open (position 100 %)"
        default: return verdict.word
        }
    }
}
