/// Reads the value a state, availability or active source cares about from an
/// MQTT payload: a field of a JSON payload, or the raw payload.
enum PayloadReader {
    /// What a payload says about one field.
    enum Reading: Equatable {
        /// The value, as text (JSON scalars as their text).
        case value(String)
        /// A JSON payload without that field: not about this source (Tasmota's
        /// `RESULT` answers many commands); ignored silently.
        case absent
    }

    /// Reads `field` (a dotted path) from `payload`; with no field, or a payload
    /// that is not a JSON object, the trimmed raw payload is the value.
    static func read(_ payload: [UInt8], field: [String]?) -> Reading {
        guard let field, looksLikeJSONObject(payload), let json = try? JSONValue.parse(bytes: payload)
        else { return .value(trimmed(String(decoding: payload, as: UTF8.self))) }
        guard let found = json.value(atPath: field), let scalar = found.scalarText else { return .absent }
        return .value(scalar)
    }

    /// The member names of a JSON object payload (at most `limit`, each cut to
    /// `keyCharacters` for the log), or nil when the payload is not a JSON object.
    static func topLevelKeys(_ payload: [UInt8], limit: Int = 12, keyCharacters: Int = 40) -> [String]? {
        guard looksLikeJSONObject(payload), let members = (try? JSONValue.parse(bytes: payload))?.objectMembers else { return nil }
        return members.prefix(limit).map { PayloadExcerpt.make(Array($0.key.utf8), limit: keyCharacters) }
    }

    /// Whether the payload starts like a JSON object but does not parse as one.
    static func isBrokenJSON(_ payload: [UInt8]) -> Bool {
        looksLikeJSONObject(payload) && (try? JSONValue.parse(bytes: payload)) == nil
    }

    /// Whether the payload is empty or only whitespace (a cleared retained message).
    static func isBlank(_ payload: [UInt8]) -> Bool {
        payload.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// Case-insensitive comparison of two state words (ASCII letters).
    static func matches(_ value: String, _ expected: String) -> Bool {
        value.lowercased() == expected.lowercased()
    }

    private static func looksLikeJSONObject(_ payload: [UInt8]) -> Bool {
        payload.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
    }

    private static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
