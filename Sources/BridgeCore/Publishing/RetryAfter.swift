/// The `Retry-After` header of a refused PATCH (RFC 9110 §10.2.3): a number of
/// seconds or an HTTP date. Read without overflow; the delay is clamped to
/// `minimumMs`...`maximumMs` by the core, which honours it on 429 and 503 only.
public enum RetryAfter {
    /// Never retry sooner than this, whatever the server says (a negative or zero
    /// value must not hot-loop PATCHes that each carry the token).
    public static let minimumMs: Int64 = 1_000
    /// Never wait longer than this: a huge value must not stop publishing for ever.
    public static let maximumMs: Int64 = 3_600_000

    /// The delay the header asks for, in ms, or nil when it is neither form.
    /// An HTTP date is measured from the response's own `Date` header when it has
    /// one (both on the server's clock), else from the board's clock.
    public static func delayMs(header: String, responseDate: String?, boardClockMs: Int64) -> Int64? {
        let text = trimmed(header)
        if let seconds = seconds(text) { return seconds.multipliedSaturating(by: 1000) }
        guard let targetMs = HTTPDate.milliseconds(from: String(text)) else { return nil }
        let referenceMs = responseDate.flatMap { HTTPDate.milliseconds(from: String(trimmed($0))) } ?? boardClockMs
        return targetMs.subtractingSaturating(referenceMs)
    }

    /// A delay the server asked for, brought into the range the bridge honours.
    public static func clampedMs(_ delayMs: Int64) -> Int64 {
        delayMs.clamped(to: minimumMs...maximumMs)
    }

    /// `delay-seconds`: ASCII digits only, any length, saturating.
    private static func seconds(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        var value: Int64 = 0
        for byte in text.utf8 {
            value = value.multipliedSaturating(by: 10).addingSaturating(Int64(byte - UInt8(ascii: "0")))
        }
        return value
    }

    private static func trimmed(_ text: String) -> Substring {
        var slice = Substring(text)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }
}
