/// Why a text is not JSON, with the byte offset where that became clear.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
    /// The deepest nesting a parse accepts: deeper documents are refused, not
    /// allowed to exhaust the stack.
    public static let maxNestingDepth = 64

    /// Parses RFC 8259 JSON (one value, white space around it allowed).
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses RFC 8259 JSON from UTF-8 bytes.
    public static func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try parse(bytes: bytes, cutTo: nil)
    }

    /// Parses RFC 8259 JSON from UTF-8 bytes, building only what `shape` names
    /// (nil: all of it). The whole text is still checked. A value of another kind
    /// than the shape expects is kept as its reader sees it: a scalar whole, an
    /// object or array empty (still an object or an array).
    public static func parse(bytes: [UInt8], cutTo shape: JSONShape?) throws(JSONParseError) -> JSONValue {
        var parser = JSONBytesParser(bytes: bytes)
        let value = try parser.parseValue(depth: 0, shape: shape)
        parser.skipWhitespace()
        guard parser.isAtEnd else { throw parser.error("unexpected text after the value") }
        return value
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes.
struct JSONBytesParser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    func error(_ reason: String) -> JSONParseError {
        JSONParseError(offset: index, reason: reason)
    }

    mutating func skipWhitespace() {
        var at = index   // a local: the loop keeps it in a register, not in the parser
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
        index = at
    }

    mutating func parseValue(depth: Int, shape: JSONShape? = nil) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maxNestingDepth else { throw error("nested too deeply") }
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth, shape: shape)
        case UInt8(ascii: "["): return try parseArray(depth: depth, shape: shape)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        default: return try parseNumber()
        }
    }

    /// Reads and checks a value at `depth` without keeping it (scalars aside, nothing is built).
    mutating func skipValue(depth: Int) throws(JSONParseError) {
        _ = try parseValue(depth: depth, shape: .nothing)
    }

    private mutating func expectWord(_ word: String) throws(JSONParseError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("expected '\(word)'") }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int, shape: JSONShape?) throws(JSONParseError) -> JSONValue {
        var members: [JSONMember] = []
        try readObject { key, parser throws(JSONParseError) in
            let name = String(decoding: key, as: UTF8.self)
            let (isKept, inner) = shape?.member(name) ?? (true, nil)
            let value = try parser.parseValue(depth: depth + 1, shape: inner)
            if isKept { members.append(JSONMember(name, value)) }
        }
        return .object(members)
    }

    /// Reads the object whose `{` is at `index`, member by member: `member` gets
    /// each key's bytes (escapes decoded) with the parser at the member's value,
    /// and must read that value (`parseValue`, at the object's depth + 1). The
    /// one loop over an object's members: `parseObject` builds a `JSONValue`
    /// with it, a reader of a few known members (`PressEnvelope`) reads them
    /// without building the rest or a `String` of each key.
    mutating func readObject(
        _ member: (ArraySlice<UInt8>, inout JSONBytesParser) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try parseStringBytes()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            try member(key, &self)
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int, shape: JSONShape?) throws(JSONParseError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            let (isKept, asNull, inner) = shape?.element(elements.count) ?? (true, false, nil)
            let element = try parseValue(depth: depth + 1, shape: inner)
            if isKept { elements.append(asNull ? .null : element) }
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error("expected ',' or ']'")
        }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        String(decoding: try parseStringBytes(), as: UTF8.self)
    }

    /// A string's bytes (the parser at its opening quote), read as runs of plain
    /// bytes between escapes: one without escapes (most of them) is a slice of
    /// the text, others the runs and the escapes' bytes copied into one buffer.
    mutating func parseStringBytes() throws(JSONParseError) -> ArraySlice<UInt8> {
        index += 1
        var runStart = index
        var utf8: [UInt8] = []   // stays empty until the first escape (an escape always adds bytes)
        while index < bytes.count {
            index = Self.plainRunEnd(bytes, from: index)
            guard index < bytes.count else { break }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                let run = bytes[runStart..<index - 1]
                if utf8.isEmpty { return run }
                utf8.append(contentsOf: run)
                return utf8[...]
            case UInt8(ascii: "\\"):
                utf8.append(contentsOf: bytes[runStart..<index - 1])
                try parseEscape(into: &utf8)
                runStart = index
            case 0..<0x20:
                throw error("control character in a string")
            default:
                continue
            }
        }
        throw error("unterminated string")
    }

    /// Where the run of plain string bytes from `start` ends: the first quote,
    /// backslash or control byte, or the end.
    private static func plainRunEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var at = start
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            at += 1
        }
        return at
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        guard index < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
            UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[byte] { utf8.append(replacement); return }
        guard byte == UInt8(ascii: "u") else { throw error("unknown escape") }
        var scalar = try parseHex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("lone surrogate") }
            index += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("lone surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid code point") }
        utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexValue(bytes[index]) else { throw error("bad hex digit") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw error("unexpected character") }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw error("digit expected after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw error("digit expected in exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let number = Int64(text) { return .int(number) }
        guard let number = Double(text) else { throw error("number out of range") }
        return .double(number)
    }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
