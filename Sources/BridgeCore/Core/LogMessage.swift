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
        self.init(String(decoding: stringInterpolation.text, as: UTF8.self),
                  kind: String(decoding: stringInterpolation.kind, as: UTF8.self))
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

    /// Builds the text and the kind side by side, as UTF-8 bytes made `String`s
    /// once at the end (appending bytes costs a fraction of appending to a
    /// `String`; a press logs two or three lines).
    public struct Interpolation: StringInterpolationProtocol, Sendable {
        var text: [UInt8] = []
        var kind: [UInt8] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
            kind.reserveCapacity(literalCapacity + 2 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            text.append(contentsOf: literal.utf8)
            kind.append(contentsOf: literal.utf8)
        }

        /// A value: in the text, `{}` in the kind.
        public mutating func appendInterpolation<Value>(_ value: Value) {
            appendValue(String(describing: value))
        }

        /// The same for text and for values that describe themselves: the same
        /// words as `String(describing:)`, without its run-time look for how
        /// the value prints (a large share of a press's log lines).
        public mutating func appendInterpolation(_ value: String) {
            appendValue(value)
        }

        public mutating func appendInterpolation<Value: CustomStringConvertible>(_ value: Value) {
            appendValue(value.description)
        }

        /// An action: its `description` (`slug/id`), without making that `String`.
        public mutating func appendInterpolation(_ key: ActionKey) {
            text.append(contentsOf: key.slug.utf8)
            text.append(UInt8(ascii: "/"))
            text.append(contentsOf: key.actionId.utf8)
            kind.append(contentsOf: Self.valueMark)
        }

        /// A message within a message: its text, and its kind in the kind.
        public mutating func appendInterpolation(_ message: LogMessage) {
            text.append(contentsOf: message.text.utf8)
            kind.append(contentsOf: message.kind.utf8)
        }

        /// A value from the config: in the text and in the kind.
        public mutating func appendInterpolation<Value>(configured value: Value) {
            let described = String(describing: value)
            text.append(contentsOf: described.utf8)
            kind.append(contentsOf: described.utf8)
        }

        /// What stands for a value in the kind.
        private static let valueMark = Array("{}".utf8)

        private mutating func appendValue(_ value: String) {
            text.append(contentsOf: value.utf8)
            kind.append(contentsOf: Self.valueMark)
        }
    }
}
