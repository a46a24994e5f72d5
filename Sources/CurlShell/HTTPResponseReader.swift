/// An incremental, bounded reader of one HTTP/1.1 response as it arrives on a
/// connection (`HTTPClient` writes the request and reads the answer itself on a
/// libcurl CONNECT_ONLY connection): the status line, the head's fields (only the
/// kept ones stored: the last of a name wins; an informational `1xx` head and its
/// fields are skipped), then the body by `Content-Length`, by `Transfer-Encoding:
/// chunked` (trailers read like fields) or until the connection closes. Bytes may
/// be cut anywhere. Every size is bounded: the heads and trailers together at
/// `maxHeadBytes`, a chunk-size line at `maxChunkLineBytes`, the body kept up to
/// `maxBodyBytes` (the rest is read and dropped, as libcurl's collector dropped it).
/// Hostile bytes give an `HTTPResponseReaderError`, never a crash or a loop.
struct HTTPResponseReader {
    /// Most bytes of all heads (informational ones too) and trailers of one response.
    static let maxHeadBytes = 64 * 1024
    /// Most bytes of one chunk-size line (the size and any extension).
    static let maxChunkLineBytes = 1_024
    /// Largest `Content-Length` or chunk size taken (larger is refused as hostile).
    static let maxDeclaredBytes = 1 << 40

    enum Stage: Equatable {
        case statusLine, fields, body(remaining: Int), chunkSize, chunkData(remaining: Int), chunkDataEnd, trailers,
             untilClose, complete
    }

    /// The final status (0 before its line came).
    private(set) var status = 0
    /// The kept fields of the final head and of the trailers, by lower-case name.
    private(set) var headers: [String: String] = [:]
    private(set) var body: [UInt8] = []
    /// The connection cannot carry another request after this response
    /// (`Connection: close`, HTTP/1.0, a close-delimited body).
    private(set) var closesConnection = false
    /// Whether any byte of the answer came (a kept-alive connection closed before
    /// any is retried on a fresh one).
    private(set) var hasBytes = false
    private(set) var stage = Stage.statusLine

    let maxBodyBytes: Int
    /// The kept field names, lower-case bytes beside their String form.
    private let keptNames: [(name: String, bytes: [UInt8])]
    /// The request was a HEAD: no body follows whatever the head says.
    private let isHeadRequest: Bool
    private var line: [UInt8] = []
    private var headBytes = 0
    private var contentLength: Int?
    private var isChunked = false
    private var hasOtherCoding = false

    init(maxBodyBytes: Int, keptNames: [(name: String, bytes: [UInt8])], isHeadRequest: Bool = false) {
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.keptNames = keptNames
        self.isHeadRequest = isHeadRequest
        line.reserveCapacity(256)
    }

    /// The names of `names` as the reader keeps them (lower case).
    static func keptNames(_ names: [String]) -> [(name: String, bytes: [UInt8])] {
        names.map { ($0.lowercased(), Array($0.lowercased().utf8)) }
    }

    var isComplete: Bool { stage == .complete }

    /// More bytes came after the answer: the connection is not kept.
    mutating func markClosing() {
        closesConnection = true
    }

    /// Reads the next bytes; returns how many were taken (fewer than given only
    /// once the response is complete: the rest is not this response's).
    mutating func read(_ bytes: UnsafeRawBufferPointer) throws(HTTPResponseReaderError) -> Int {
        if !bytes.isEmpty { hasBytes = true }
        var index = 0
        while index < bytes.count, stage != .complete {
            index = try step(bytes, from: index)
        }
        return index
    }

    /// The connection closed: completes a close-delimited body, else the answer was cut.
    mutating func readEnd() throws(HTTPResponseReaderError) {
        switch stage {
        case .complete: return
        case .untilClose: stage = .complete
        case .statusLine where !hasBytes && line.isEmpty: throw .nothing
        default: throw .cut
        }
    }

    /// One stage's work from `index`; returns the index after what it took.
    private mutating func step(_ bytes: UnsafeRawBufferPointer, from index: Int) throws(HTTPResponseReaderError) -> Int {
        switch stage {
        case .statusLine, .fields, .trailers, .chunkSize, .chunkDataEnd:
            guard let (next, isLineDone) = try takeLine(bytes, from: index) else { return bytes.count }
            if isLineDone { try endLine() }
            return next
        case .body(let remaining):
            let taken = min(remaining, bytes.count - index)
            keep(bytes, from: index, count: taken)
            stage = remaining == taken ? .complete : .body(remaining: remaining - taken)
            return index + taken
        case .chunkData(let remaining):
            let taken = min(remaining, bytes.count - index)
            keep(bytes, from: index, count: taken)
            stage = remaining == taken ? .chunkDataEnd : .chunkData(remaining: remaining - taken)
            return index + taken
        case .untilClose:
            keep(bytes, from: index, count: bytes.count - index)
            return bytes.count
        case .complete:
            return index
        }
    }

    /// Appends bytes up to the line's end to `line` (bounded); nil when all were
    /// taken and the line goes on, else the index after the LF.
    private mutating func takeLine(_ bytes: UnsafeRawBufferPointer, from index: Int) throws(HTTPResponseReaderError) -> (Int, Bool)? {
        let rest = UnsafeRawBufferPointer(rebasing: bytes[index...])
        let end = ByteSearch.firstIndex(of: 0x0A, in: rest, from: 0, to: rest.count)
        let piece = UnsafeRawBufferPointer(rebasing: rest[..<(end ?? rest.count)])
        let bound = stage == .chunkSize || stage == .chunkDataEnd ? Self.maxChunkLineBytes - line.count : Self.maxHeadBytes - headBytes
        guard piece.count < bound else { throw .tooLarge }
        if stage != .chunkSize, stage != .chunkDataEnd { headBytes += piece.count + 1 }
        line.append(contentsOf: piece)
        guard let end else { return nil }
        return (index + end + 1, true)
    }

    /// A whole line is in `line` (without its LF).
    private mutating func endLine() throws(HTTPResponseReaderError) {
        if line.last == 0x0D { line.removeLast() }
        defer { line.removeAll(keepingCapacity: true) }
        switch stage {
        case .statusLine: try readStatusLine()
        case .fields: try line.isEmpty ? endHead() : readField()
        case .trailers: if line.isEmpty { stage = .complete } else { try readField() }
        case .chunkSize: try readChunkSize()
        case .chunkDataEnd:
            guard line.isEmpty else { throw .malformed }
            stage = .chunkSize
        default: break
        }
    }

    private mutating func readStatusLine() throws(HTTPResponseReaderError) {
        guard line.count >= 12, line.starts(with: Self.httpSlashOne) else { throw .malformed }
        let code = line.withUnsafeBytes { raw -> Int in
            guard case .status(let code) = ResponseHeadLine(raw) else { return 0 }
            return code
        }
        guard code >= 100, code <= 599, code != 101 else { throw .malformed }
        status = code
        headers = [:]
        contentLength = nil
        isChunked = false
        hasOtherCoding = false
        closesConnection = line[7] == UInt8(ascii: "0")
        stage = .fields
    }

    private mutating func readField() throws(HTTPResponseReaderError) {
        guard line.first != 0x20, line.first != 0x09 else { return }  // an obsolete folded line: ignored
        let isFramingRead = stage == .fields
        let line = line
        let failure = line.withUnsafeBytes { raw -> HTTPResponseReaderError? in
            guard case .field(let name, let value) = ResponseHeadLine(raw) else { return nil }
            if isFramingRead, !readFraming(name, value) { return .malformed }
            for kept in keptNames where ResponseHeadLine.name(name, is: kept.bytes) {
                headers[kept.name] = String(decoding: value, as: UTF8.self)
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Content-Length, Transfer-Encoding and Connection, which frame the body.
    /// False when the field is malformed (a Content-Length not a number, or two that differ).
    private mutating func readFraming(_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Bool {
        if ResponseHeadLine.name(name, is: Self.contentLengthName) {
            guard let length = Self.decimal(value), contentLength == nil || contentLength == length else { return false }
            contentLength = length
        } else if ResponseHeadLine.name(name, is: Self.transferEncodingName) {
            let isChunkedLast = Self.lastToken(value, is: Self.chunkedToken)
            isChunked = isChunkedLast
            hasOtherCoding = hasOtherCoding || !isChunkedLast
        } else if ResponseHeadLine.name(name, is: Self.connectionName), Self.hasToken(value, Self.closeToken) {
            closesConnection = true
        }
        return true
    }

    /// The blank line after a head: skips an informational one, else chooses how the body is framed.
    private mutating func endHead() throws(HTTPResponseReaderError) {
        if status < 200 {
            status = 0
            headers = [:]
            stage = .statusLine
            return
        }
        if isHeadRequest || status == 204 || status == 304 {
            stage = .complete
        } else if isChunked && !hasOtherCoding {
            stage = .chunkSize
            if contentLength != nil { closesConnection = true }
        } else if hasOtherCoding || isChunked {
            stage = .untilClose
            closesConnection = true
        } else if let contentLength {
            stage = contentLength == 0 ? .complete : .body(remaining: contentLength)
        } else {
            stage = .untilClose
            closesConnection = true
        }
    }

    private mutating func readChunkSize() throws(HTTPResponseReaderError) {
        var size = 0
        var digits = 0
        for byte in line {
            guard let digit = Self.hexDigit(byte) else {
                guard byte == UInt8(ascii: ";") || byte == 0x20 || byte == 0x09, digits > 0 else { throw .malformed }
                break
            }
            size = size * 16 + digit
            digits += 1
            guard size <= Self.maxDeclaredBytes else { throw .tooLarge }
        }
        guard digits > 0 else { throw .malformed }
        stage = size == 0 ? .trailers : .chunkData(remaining: size)
    }

    /// Keeps body bytes up to `maxBodyBytes`; the rest is dropped.
    private mutating func keep(_ bytes: UnsafeRawBufferPointer, from index: Int, count: Int) {
        let room = min(count, max(0, maxBodyBytes - body.count))
        guard room > 0 else { return }
        body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + room)]))
    }

    private static let httpSlashOne = Array("HTTP/1.".utf8)
    private static let contentLengthName = Array("content-length".utf8)
    private static let transferEncodingName = Array("transfer-encoding".utf8)
    private static let connectionName = Array("connection".utf8)
    private static let chunkedToken = Array("chunked".utf8)
    private static let closeToken = Array("close".utf8)

    /// A decimal number of digits only, at most `maxDeclaredBytes`; nil otherwise.
    static func decimal(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
            guard value <= maxDeclaredBytes else { return nil }
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }

    /// The comma-separated token of `value` that starts at `start`, spaces and tabs
    /// around it cut, and where the next one starts (past the end after the last).
    /// Read in place: no array of tokens per field.
    private static func token(_ value: UnsafeRawBufferPointer, from start: Int) -> (UnsafeRawBufferPointer, next: Int) {
        var end = start
        while end < value.count, value[end] != UInt8(ascii: ",") { end += 1 }
        var first = start
        var last = end
        while first < last, value[first] == 0x20 || value[first] == 0x09 { first += 1 }
        while last > first, value[last - 1] == 0x20 || value[last - 1] == 0x09 { last -= 1 }
        return (UnsafeRawBufferPointer(rebasing: value[first..<last]), end + 1)
    }

    private static func hasToken(_ value: UnsafeRawBufferPointer, _ token: [UInt8]) -> Bool {
        var start = 0
        repeat {
            let (piece, next) = Self.token(value, from: start)
            if ResponseHeadLine.name(piece, is: token) { return true }
            start = next
        } while start <= value.count
        return false
    }

    private static func lastToken(_ value: UnsafeRawBufferPointer, is token: [UInt8]) -> Bool {
        let start = value.lastIndex(of: UInt8(ascii: ",")).map { $0 + 1 } ?? 0
        return ResponseHeadLine.name(Self.token(value, from: start).0, is: token)
    }
}

/// Why a response could not be read.
enum HTTPResponseReaderError: Error, Equatable {
    /// Not HTTP/1.x as a server sends it (a status line, a field, a chunk size).
    case malformed
    /// A head, trailer, chunk-size line or declared size beyond its bound.
    case tooLarge
    /// The connection closed before any byte of the answer.
    case nothing
    /// The connection closed in the middle of the answer.
    case cut
}
