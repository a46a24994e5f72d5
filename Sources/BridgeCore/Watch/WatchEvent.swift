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
    /// A cover's position said in the same message as a motion word (Shelly's
    /// `state` and `current_pos`, Tasmota's `Direction` and `Position`).
    public var positionPercent: Int?

    /// What the reading means for this action (`open`, `opening`, `stopped at 47 %`, `jammed`).
    public var word: String { Self.word(for: verdict, device: device, positionPercent: positionPercent) }

    /// What `verdict` means for an action driving `device`; a motion word with
    /// a part-way position says both (`stopped at 47 %`, `closing at 60 %`).
    public static func word(for verdict: MessageVerdict, device: TileDevice, positionPercent: Int? = nil) -> String {
        guard device != .plainSwitch else { return verdict.word }
        switch verdict {
        case .on: return device.word(on: true)
        case .off, .protectiveOff: return device.word(on: false)
        case .position(let percent?) where percent == 100: return "open (position 100 %)"
        case .reading(let reading) where device == .cover:
            guard let percent = positionPercent, (1...99).contains(percent) else { return verdict.word }
            return "\(reading.isAtRest ? "stopped" : reading.rawValue) at \(percent) %"
        default: return verdict.word
        }
    }
}
