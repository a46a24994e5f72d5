/// Reads requests off the bytes of one connection as they arrive: head, then a
/// Content-Length or chunked body, within the configured bounds. It keeps where
/// it stopped, so bytes trickling in are each looked at once (no rescans).
struct HTTPRequestParser {
    /// What the bytes so far give.
    enum Outcome {
        case request(HTTPRequest)
        /// The request is not complete yet: read more.
        case needsMore
        /// The client waits for `100 Continue` before its body: send it, then ask again.
        case continueExpected
        /// The client closed mid-request (or a line ran past its bound): close quietly.
        case closed
        /// The request is refused with this status (400, 413, 431); close after answering.
        case refused(status: Int, reason: String)
    }

    private enum Phase {
        case head
        case body(HTTPRequestHead, remaining: Int)
        case chunkSize(HTTPRequestHead)
        case chunkData(HTTPRequestHead, remaining: Int)
        case chunkEnd(HTTPRequestHead)
        case trailers(HTTPRequestHead, trailerBytes: Int)
    }

    /// A line of a chunked body (size, end of data, trailer), without its CRLF/LF.
    private enum Line {
        case empty
        case line(ArraySlice<UInt8>)
        case needsMore
        /// Longer than its bound: known as soon as the bytes so far pass it, so the
        /// answer is the same whether its end has arrived or not.
        case tooLong
    }

    private let limits: HTTPServerConfiguration
    private var bytes: [UInt8] = []
    /// Bytes before this index are consumed.
    private var start = 0
    /// Where the search for the end of a head or a line resumes (absolute index).
    private var scanFrom = 0
    /// Blank lines skipped before the current head (they count against its bound).
    private var skippedBytes = 0
    private var phase = Phase.head
    /// A chunked body's chunks so far, appended in place.
    private var chunkedBody: [UInt8] = []

    init(limits: HTTPServerConfiguration) { self.limits = limits }

    /// Bytes received and not consumed yet: after a request, the client sent its
    /// next one without waiting for the answer (pipelining).
    var bufferedByteCount: Int { bytes.count - start }
    var hasBufferedBytes: Bool { bufferedByteCount > 0 }

    /// Whether the parser is between requests or inside a head (the head's deadline runs).
    var isReadingHead: Bool { if case .head = phase { return true } else { return false } }

    /// Adds received bytes (the caller bounds each read).
    mutating func append(_ received: ArraySlice<UInt8>) {
        if start > 16 * 1024 && start * 2 > bytes.count {
            bytes.removeFirst(start)
            scanFrom -= start
            start = 0
        }
        bytes += received
    }

    /// The next request, or what stops it; `inputEnded`: the client sent its last byte.
    mutating func next(inputEnded: Bool) -> Outcome {
        while true {
            guard let outcome = advance() else { continue }
            if case .needsMore = outcome, inputEnded { return .closed }
            return outcome
        }
    }

    /// One step of the current phase: what it gives, nil to take the next step.
    private mutating func advance() -> Outcome? {
        switch phase {
        case .head: return readHead()
        case .body(let head, let remaining):
            guard bufferedByteCount >= remaining else { return .needsMore }
            let body = take(remaining)
            return finish(head, body: body)
        case .chunkSize(let head): return readChunkSize(head)
        case .chunkData(let head, let remaining):
            guard bufferedByteCount >= remaining else { return .needsMore }
            chunkedBody += bytes[start..<(start + remaining)]
            start += remaining
            scanFrom = start
            phase = .chunkEnd(head)
            return nil
        case .chunkEnd(let head):
            // Only the line's end may follow a chunk's data: any other byte is refused
            // as soon as it arrives, however the reads were cut.
            switch takeLine(maxBytes: 0) {
            case .needsMore: return .needsMore
            case .tooLong, .line: return .refused(status: 400, reason: "chunk not terminated")
            case .empty:
                phase = .chunkSize(head)
                return nil
            }
        case .trailers(let head, let trailerBytes):
            switch takeLine(maxBytes: limits.maxHeaderBytes - trailerBytes) {
            case .needsMore: return .needsMore
            case .tooLong: return .refused(status: 431, reason: "trailers too large")
            case .empty:
                defer { chunkedBody = [] }
                return finish(head, body: chunkedBody)
            case .line(let line):
                phase = .trailers(head, trailerBytes: trailerBytes + line.count)
                return nil
            }
        }
    }

    private mutating func finish(_ head: HTTPRequestHead, body: [UInt8]) -> Outcome {
        phase = .head
        skippedBytes = 0
        scanFrom = start
        return .request(head.request(body: body))
    }

    /// Up to the blank line ending the head, within `maxHeaderBytes` counting every
    /// byte (leading blank lines, which are skipped, included).
    private mutating func readHead() -> Outcome? {
        while start < bytes.count, bytes[start] == 13 || bytes[start] == 10 {
            start += 1
            skippedBytes += 1
        }
        scanFrom = max(scanFrom, start)
        guard let end = headEnd() else {
            scanFrom = max(start, bytes.count - 2)
            // The head counts up to its blank line's first LF: a partly received end
            // (`\n`, `\n\r`) does not count, as it would not once it arrives whole.
            if skippedBytes + headBytesAtLeast() > limits.maxHeaderBytes {
                return .refused(status: 431, reason: "request head too large")
            }
            return .needsMore
        }
        guard skippedBytes + end.start - start <= limits.maxHeaderBytes else {
            return .refused(status: 431, reason: "request head too large")
        }
        let text = String(decoding: bytes[start..<end.start], as: UTF8.self)
        start = end.afterEnd
        scanFrom = start
        let head: HTTPRequestHead
        do throws(HTTPHeadParseError) {
            head = try HTTPRequestHead.parse(text)
        } catch {
            return .refused(status: 400, reason: error.reason)
        }
        return startBody(head)
    }

    /// Where the head ends (`CRLF CRLF` or `LF LF`) and where the body starts, looking
    /// from where the last look stopped.
    private func headEnd() -> (start: Int, afterEnd: Int)? {
        var index = max(start, scanFrom - 2)
        while index < bytes.count {
            if bytes[index] == 10 {
                if index + 1 < bytes.count, bytes[index + 1] == 10 { return (index, index + 2) }
                if index + 2 < bytes.count, bytes[index + 1] == 13, bytes[index + 2] == 10 {
                    return (index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    /// The fewest bytes the head being received can count (as `readHead` counts a
    /// whole one: up to the first LF of its end), with no end among the bytes so far.
    private func headBytesAtLeast() -> Int {
        let count = bytes.count
        if count - 1 >= start, bytes[count - 1] == 10 { return count - 1 - start }
        if count - 2 >= start, bytes[count - 2] == 10, bytes[count - 1] == 13 { return count - 2 - start }
        return count - start
    }

    private mutating func startBody(_ head: HTTPRequestHead) -> Outcome? {
        let headers = head.headers
        let expectsContinue = headers.value(named: "Expect")?.lowercased() == "100-continue"
        let isChunked = headers.value(named: "Transfer-Encoding")?.lowercased().contains("chunked") ?? false
        if isChunked {
            guard headers.value(named: "Content-Length") == nil else {
                return .refused(status: 400, reason: "both Content-Length and chunked")
            }
            chunkedBody = []
            phase = .chunkSize(head)
        } else {
            guard let lengthText = headers.value(named: "Content-Length") else { return finish(head, body: []) }
            guard let length = Int(lengthText.trimmingSpaces), length >= 0,
                  lengthText.trimmingSpaces.allSatisfy(\.isNumber) else {
                return .refused(status: 400, reason: "invalid Content-Length")
            }
            guard length <= limits.maxBodyBytes else { return .refused(status: 413, reason: "body too large") }
            phase = .body(head, remaining: length)
        }
        return expectsContinue ? .continueExpected : nil
    }

    private mutating func readChunkSize(_ head: HTTPRequestHead) -> Outcome? {
        let sizeLine: ArraySlice<UInt8>
        switch takeLine(maxBytes: 1024) {
        case .needsMore: return .needsMore
        case .tooLong: return .closed
        case .empty: sizeLine = []
        case .line(let line): sizeLine = line
        }
        let sizeText = String(decoding: sizeLine, as: UTF8.self).split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        guard let size = Int(sizeText.trimmingSpaces, radix: 16), size >= 0 else {
            return .refused(status: 400, reason: "invalid chunk size")
        }
        if size == 0 {
            phase = .trailers(head, trailerBytes: 0)
            return nil
        }
        guard size <= limits.maxBodyBytes - chunkedBody.count else { return .refused(status: 413, reason: "body too large") }
        phase = .chunkData(head, remaining: size)
        return nil
    }

    /// One line without its CRLF/LF, looking from where the last look stopped; longer
    /// than `maxBytes` (its end not counted) is `tooLong`, whether its LF has arrived
    /// or not: a CR at the end of the bytes so far may be the start of its end.
    private mutating func takeLine(maxBytes: Int) -> Line {
        var index = max(start, scanFrom)
        while index < bytes.count, bytes[index] != 10 { index += 1 }
        guard index < bytes.count else {
            scanFrom = index
            let lineBytesAtLeast = bufferedByteCount - (bytes.last == 13 && bufferedByteCount > 0 ? 1 : 0)
            return lineBytesAtLeast > maxBytes ? .tooLong : .needsMore
        }
        let lineEnd = index > start && bytes[index - 1] == 13 ? index - 1 : index
        guard lineEnd - start <= maxBytes else { return .tooLong }
        let line = bytes[start..<lineEnd]
        start = index + 1
        scanFrom = start
        return line.isEmpty ? .empty : .line(line)
    }

    private mutating func take(_ count: Int) -> [UInt8] {
        let taken = Array(bytes[start..<(start + count)])
        start += count
        scanFrom = start
        return taken
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
