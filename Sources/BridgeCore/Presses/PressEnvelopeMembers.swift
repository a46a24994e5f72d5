/// The members of an event's JSON data that a press uses, read by
/// `JSONBytesParser.readObject` without building the rest: no `JSONValue` tree,
/// no `String` for a key or for a member never used as text. Each member is
/// the first of its name in its object (what `JSONValue`'s subscript finds);
/// a later one of the same name is checked and skipped.
struct PressEnvelopeMembers {
    /// A member that is read as a string: nil bytes when absent or not a string.
    struct StringMember {
        var isSeen = false
        var bytes: ArraySlice<UInt8>?

        /// The string's text (decoded as a whole parse decodes it).
        var text: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

        /// Reads the member's value at `depth`: the first one of the name is kept.
        mutating func read(_ parser: inout JSONBytesParser, depth: Int) throws(JSONParseError) {
            guard !isSeen else { return try parser.skipValue(depth: depth) }
            isSeen = true
            parser.skipWhitespace()
            if parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") {
                bytes = try parser.parseStringBytes()
            } else {
                try parser.skipValue(depth: depth)
            }
        }
    }

    var isObject = false
    var id = StringMember()
    var type = StringMember()
    var createdAt = StringMember()
    var expiresAt = StringMember()
    var isDataSeen = false
    /// Whether the first `data` member is an object (its members below are read only then).
    var isDataObject = false
    var widget = StringMember()
    var action = StringMember()
    var kind = StringMember()
    var isValueSeen = false
    /// `data.value` when it is a bool.
    var value: Bool?

    /// Reads a whole JSON text (one value, white space around it), keeping the
    /// press's members when it is an object; throws what `JSONValue.parse` throws.
    mutating func read(_ bytes: [UInt8]) throws(JSONParseError) {
        var parser = JSONBytesParser(bytes: bytes)
        parser.skipWhitespace()
        if parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") {
            isObject = true
            try parser.readObject { key, parser throws(JSONParseError) in try readTop(key, &parser) }
        } else {
            try parser.skipValue(depth: 0)
        }
        parser.skipWhitespace()
        guard parser.isAtEnd else { throw parser.error("unexpected text after the value") }
    }

    private mutating func readTop(_ key: ArraySlice<UInt8>, _ parser: inout JSONBytesParser) throws(JSONParseError) {
        if Self.matches(key, "id") { return try id.read(&parser, depth: 1) }
        if Self.matches(key, "type") { return try type.read(&parser, depth: 1) }
        if Self.matches(key, "created_at") { return try createdAt.read(&parser, depth: 1) }
        if Self.matches(key, "expires_at") { return try expiresAt.read(&parser, depth: 1) }
        guard Self.matches(key, "data"), !isDataSeen else { return try parser.skipValue(depth: 1) }
        isDataSeen = true
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "{") else {
            return try parser.skipValue(depth: 1)
        }
        isDataObject = true
        try parser.readObject { key, parser throws(JSONParseError) in try readData(key, &parser) }
    }

    private mutating func readData(_ key: ArraySlice<UInt8>, _ parser: inout JSONBytesParser) throws(JSONParseError) {
        if Self.matches(key, "widget") { return try widget.read(&parser, depth: 2) }
        if Self.matches(key, "action") { return try action.read(&parser, depth: 2) }
        if Self.matches(key, "kind") { return try kind.read(&parser, depth: 2) }
        guard Self.matches(key, "value"), !isValueSeen else { return try parser.skipValue(depth: 2) }
        isValueSeen = true
        value = try parser.parseValue(depth: 2, shape: .nothing).boolValue
    }

    /// Whether a key's bytes are `name` (ASCII: a key equal to it as a string has these bytes).
    static func matches(_ key: ArraySlice<UInt8>, _ name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { name in
            var at = key.startIndex
            for byte in name {
                guard key[at] == byte else { return false }
                at += 1
            }
            return true
        }
    }
}
