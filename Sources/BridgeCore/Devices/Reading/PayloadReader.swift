/// The byte-level rules for reading an MQTT payload (what `ParsedPayload`
/// applies once per message): what a reading is, what counts as blank, as a
/// JSON object, as the same state word.
enum PayloadReader {
    /// What a payload says about one field.
    enum Reading: Equatable, Sendable {
        /// The value, as text (JSON scalars as their text).
        case value(String)
        /// A JSON payload without that field: not about this source (Tasmota's
        /// `RESULT` answers many commands); ignored silently.
        case absent
    }

    /// The member names for the log: at most `limit`, each cut to `keyCharacters`.
    static func logKeys(_ members: [JSONMember], limit: Int = 12, keyCharacters: Int = 40) -> [String] {
        members.prefix(limit).map { PayloadExcerpt.make(Array($0.key.utf8), limit: keyCharacters) }
    }

    /// Whether the payload is empty or only whitespace (a cleared retained message).
    static func isBlank(_ payload: [UInt8]) -> Bool {
        payload.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// Case-insensitive comparison of two state words: device words are bytes,
    /// compared byte for byte with only ASCII letters folded (`LOC\u{212A}ED`,
    /// with a KELVIN SIGN, is not `LOCKED`; NFC and NFD spellings differ).
    static func matches(_ value: String, _ expected: String) -> Bool {
        let lhs = value.utf8, rhs = expected.utf8
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy { asciiLowercased($0) == asciiLowercased($1) }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// A decimal number as a device writes it (`47`, `47.5`, `0.4`, `-0`, `-1`).
    struct DecimalNumber: Equatable {
        /// A leading minus sign, even on zero (`-0`).
        var isNegative: Bool
        /// The whole part, clamped to 1,000,000.
        var whole: Int64
        /// Whether a digit after the point is not zero (`0.4`; not `0.0`).
        var hasFraction: Bool
        /// The first digit after the point (`47.5` → 5), 0 without one.
        var tenths: Int64

        /// Exactly zero, without a sign (`0`, `0.0`).
        var isExactlyZero: Bool { !isNegative && whole == 0 && !hasFraction }
    }

    /// The parts of a decimal number; nil when the text is not one (no
    /// exponent, no leading `+`, digits on both sides of a point).
    static func decimalNumber(_ text: String) -> DecimalNumber? {
        var digits = Substring(text)
        let isNegative = digits.first == "-"
        if isNegative { digits.removeFirst() }
        let whole = digits.prefix { $0.isASCII && $0.isNumber }
        let rest = digits.dropFirst(whole.count)
        let fraction = rest.dropFirst()
        guard !whole.isEmpty, rest.isEmpty || (rest.first == "." && fraction.allSatisfy { $0.isASCII && $0.isNumber })
        else { return nil }
        var number: Int64 = 0
        for digit in whole.utf8 { number = min(number * 10 + Int64(digit - 0x30), 1_000_000) }
        let tenths = fraction.utf8.first.map { Int64($0 - 0x30) } ?? 0
        return DecimalNumber(isNegative: isNegative, whole: number, hasFraction: fraction.contains { $0 != "0" }, tenths: tenths)
    }

    /// Whether the first non-whitespace byte opens a JSON object.
    static func looksLikeJSONObject(_ payload: [UInt8]) -> Bool {
        payload.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
    }

    /// The payload as text, without leading and trailing whitespace. One that
    /// starts and ends with a printable ASCII byte (`ON`, `{...}`) has none to
    /// trim: its first character starts with that byte, its last one ends with
    /// it and starts with it or a prepended mark, none of them white space.
    static func trimmedText(_ payload: [UInt8]) -> String {
        if let first = payload.first, let last = payload.last, isPrintableASCII(first), isPrintableASCII(last) {
            return String(decoding: payload, as: UTF8.self)
        }
        var scalars = Substring(String(decoding: payload, as: UTF8.self))
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    private static func isPrintableASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
}
