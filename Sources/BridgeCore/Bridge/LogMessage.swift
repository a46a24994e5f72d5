/// One message the core asks the shell to log: its text, and its kind, by which
/// the shell rate-limits. The kind is the template the message was written
/// from (its literal parts, `{}` for each interpolated value), so a unique id or
/// payload in every message cannot defeat the limit:
/// `"press \(id) \(key): unknown action"` is of kind `press {} {}: unknown action`.
///
/// A value from the config (a topic, an action) can be part of the kind, so each
/// configured thing is limited on its own: `"\(configured: topic)"`. Never use
/// that for values from the network or a broker.
public struct LogMessage: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// What is written (the shell escapes control characters and bounds its length).
    public var text: String
    /// What is rate-limited together.
    public var kind: String
    /// False for the few messages already bounded where they are made (e.g. the
    /// coalesced "inbox full" report), which the shell must not suppress.
    public var isRateLimited: Bool

    /// A message of an explicit kind.
    public init(_ text: String, kind: String, isRateLimited: Bool = true) {
        self.text = text
        self.kind = kind
        self.isRateLimited = isRateLimited
    }

    public init(stringLiteral value: String) {
        self.init(value, kind: value)
    }

    public init(stringInterpolation: Interpolation) {
        self.init(stringInterpolation.text, kind: stringInterpolation.kind)
    }

    public var description: String { text }

    /// The same message, never suppressed by the shell's rate limit: only for
    /// messages whose rate is bounded where they are made.
    public var exemptFromRateLimit: LogMessage {
        LogMessage(text, kind: kind, isRateLimited: false)
    }

    /// Both messages one after the other (a long message written over several lines of code).
    public static func + (lhs: LogMessage, rhs: LogMessage) -> LogMessage {
        LogMessage(lhs.text + rhs.text, kind: lhs.kind + rhs.kind, isRateLimited: lhs.isRateLimited && rhs.isRateLimited)
    }

    /// Builds the text and the kind side by side.
    public struct Interpolation: StringInterpolationProtocol, Sendable {
        var text = ""
        var kind = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
            kind.reserveCapacity(literalCapacity + 2 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            text += literal
            kind += literal
        }

        /// A value: in the text, `{}` in the kind.
        public mutating func appendInterpolation<Value>(_ value: Value) {
            text += String(describing: value)
            kind += "{}"
        }

        /// The same for text and for values that describe themselves: the same
        /// words as `String(describing:)`, without its run-time look for how
        /// the value prints (a large share of a press's log lines).
        public mutating func appendInterpolation(_ value: String) {
            text += value
            kind += "{}"
        }

        public mutating func appendInterpolation<Value: CustomStringConvertible>(_ value: Value) {
            text += value.description
            kind += "{}"
        }

        /// A message within a message: its text, and its kind in the kind.
        public mutating func appendInterpolation(_ message: LogMessage) {
            text += message.text
            kind += message.kind
        }

        /// A value from the config: in the text and in the kind.
        public mutating func appendInterpolation<Value>(configured value: Value) {
            let described = String(describing: value)
            text += described
            kind += described
        }
    }
}
