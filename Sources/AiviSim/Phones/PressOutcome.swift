/// The answer to a phone's press: accepted with its event id, or refused and why.
public struct PressOutcome: Sendable, Equatable {
    public var isAccepted: Bool
    public var eventId: String?
    public var refusal: PressRefusal?

    static func accepted(_ eventId: String) -> PressOutcome {
        PressOutcome(isAccepted: true, eventId: eventId, refusal: nil)
    }

    static func refused(_ refusal: PressRefusal) -> PressOutcome {
        PressOutcome(isAccepted: false, eventId: nil, refusal: refusal)
    }
}
