/// The service's timing and rate-limit numbers, as the guide documents them.
/// Each is one constant so a correction is a one-line change.
public struct ServiceRules: Sendable {
    /// Aivi stops delivering a press this long after it happened.
    public var eventLifetimeMs: Int64 = 5_000
    /// A toggle waits this long for a confirming update before showing No response.
    public var toggleWaitMs: Int64 = 15_000
    /// How long No response shows ("about a minute") before the tile goes back.
    public var noResponseShownMs: Int64 = 60_000
    /// A button shows Sent this long waiting for any update...
    public var buttonSentMs: Int64 = 5_000
    /// ...and this much longer before going back.
    public var buttonSentExtraMs: Int64 = 2_000
    /// Phones other than the pressing one get at most one update per widget this often.
    public var otherPhoneUpdateIntervalMs: Int64 = 2_000
    /// Per phone and widget: a burst of this many presses...
    public var phoneBurst: Int64 = 8
    /// ...then one press per this many milliseconds...
    public var phoneRefillMs: Int64 = 1_000
    /// ...and at most this many presses in any minute.
    public var phonePressesPerMinute: Int = 60
    /// Per account: a burst of this many presses across all widgets and phones...
    public var accountBurst: Int64 = 20
    /// ...then one press per this many milliseconds.
    public var accountRefillMs: Int64 = 1_000
    /// **[assumed]** Whether any update after a toggle press ends its wait (true), or
    /// only one showing the requested state (false). The guide says both: its table
    /// waits for the requested state, but "publish the true state even when a press
    /// failed ... the phone shows off instead of waiting" needs any update to end it.
    /// True, so a bridge that answers an unreachable device is seen to do so.
    public var toggleWaitEndsOnAnyUpdate = true

    /// The documented numbers.
    public static let documented = ServiceRules()

    public init() {}
}
