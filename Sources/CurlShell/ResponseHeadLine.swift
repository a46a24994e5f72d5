/// One line of a response head as libcurl hands it to a header callback
/// (`HTTP/1.1 200 OK\r\n`, `Name: value\r\n`, the blank `\r\n`), read in place as
/// bytes: no `String` is made for a line nobody reads. A field's value has its
/// surrounding spaces, tabs and line end cut off.
enum ResponseHeadLine {
    /// A status line (`HTTP/...`): a new response head starts (after a redirect or
    /// a `100 Continue`); its code, 0 when it has none.
    case status(code: Int)
    /// The blank line that ends the head.
    case end
    /// `name: value`.
    case field(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)
    /// Anything else (no colon): ignored.
    case other

    init(_ line: UnsafeRawBufferPointer) {
        if Self.startsWithHTTPSlash(line) {
            self = .status(code: Self.statusCode(line))
            return
        }
        if (line.count == 2 && line[0] == 0x0D && line[1] == 0x0A) || (line.count == 1 && line[0] == 0x0A) {
            self = .end
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            self = .other
            return
        }
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        let value = Self.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
        self = .field(name: name, value: value)
    }

    /// Whether `name` is `lowercasedName` in any case (ASCII; header names are tokens).
    static func name(_ name: UnsafeRawBufferPointer, is lowercasedName: [UInt8]) -> Bool {
        guard name.count == lowercasedName.count else { return false }
        for index in 0..<name.count where Self.lowercased(name[index]) != lowercasedName[index] { return false }
        return true
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    private static func startsWithHTTPSlash(_ line: UnsafeRawBufferPointer) -> Bool {
        line.count >= 5 && line[0] == 0x48 && line[1] == 0x54 && line[2] == 0x54 && line[3] == 0x50 && line[4] == 0x2F
    }

    /// The digits after the first space (`HTTP/1.1 200 OK`, `HTTP/2 429 `), at most 3.
    private static func statusCode(_ line: UnsafeRawBufferPointer) -> Int {
        guard let space = line.firstIndex(of: 0x20) else { return 0 }
        var code = 0
        var digits = 0
        var index = space + 1
        while index < line.count, digits < 3, line[index] >= 0x30, line[index] <= 0x39 {
            code = code * 10 + Int(line[index] - 0x30)
            digits += 1
            index += 1
        }
        let endsThere = index == line.count || line[index] == 0x20 || line[index] == 0x0D || line[index] == 0x0A
        return digits > 0 && endsThere ? code : 0
    }

    /// `bytes` without leading and trailing spaces, tabs, CR and LF.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = bytes.count
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
