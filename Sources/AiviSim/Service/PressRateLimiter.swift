import BridgeCore

/// Why a press was refused.
public enum PressRefusal: String, Sendable, Equatable {
    /// Over the per-phone-and-widget burst or its one-a-second rate.
    case phoneRateLimit = "phone_rate_limit"
    /// Over the per-phone-and-widget 60-a-minute cap.
    case phoneMinuteLimit = "phone_minute_limit"
    /// Over the per-account burst or its one-a-second rate.
    case accountRateLimit = "account_rate_limit"
    case unknownWidget = "unknown_widget"
    /// The phone shows no tile with that id.
    case unknownAction = "unknown_action"
    case tooManyPhones = "too_many_phones"
}

/// The documented press limits: per phone and widget, and per account. A refused
/// press consumes nothing.
struct PressRateLimiter: Sendable {
    private struct PhoneWidgetKey: Hashable {
        let phone: String
        let widget: String
    }

    private let rules: ServiceRules
    private var accountBucket: TokenBucket
    private var phoneBuckets: [PhoneWidgetKey: TokenBucket] = [:]
    private var phoneWindows: [PhoneWidgetKey: MinuteWindow] = [:]

    init(rules: ServiceRules, nowMs: Int64) {
        self.rules = rules
        accountBucket = TokenBucket(capacity: rules.accountBurst, refillMs: rules.accountRefillMs, nowMs: nowMs)
    }

    /// Admits the press (taking from every limit) or says which limit refuses it.
    mutating func admit(phone: String, widget: String, nowMs: Int64) -> PressRefusal? {
        let key = PhoneWidgetKey(phone: phone, widget: widget)
        var bucket = phoneBuckets[key]
            ?? TokenBucket(capacity: rules.phoneBurst, refillMs: rules.phoneRefillMs, nowMs: nowMs)
        var window = phoneWindows[key] ?? MinuteWindow(limit: rules.phonePressesPerMinute)
        defer {
            phoneBuckets[key] = bucket
            phoneWindows[key] = window
        }
        guard window.canTake(nowMs: nowMs) else { return .phoneMinuteLimit }
        guard bucket.canTake(nowMs: nowMs) else { return .phoneRateLimit }
        guard accountBucket.canTake(nowMs: nowMs) else { return .accountRateLimit }
        window.take(nowMs: nowMs)
        bucket.take(nowMs: nowMs)
        accountBucket.take(nowMs: nowMs)
        return nil
    }
}
