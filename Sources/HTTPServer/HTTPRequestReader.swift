import ShellSupport

/// Reads requests off one connection: head, then a Content-Length or chunked body,
/// within the configured bounds.
final class HTTPRequestReader {
    /// What reading the next request gave.
    enum Outcome {
        case request(HTTPRequest)
        /// The client closed, timed out, or the server is stopping: close quietly.
        case closed
        /// The request is refused with this status (400, 413, 431); close after answering.
        case refused(status: Int, reason: String)
    }

    private let socket: ConnectionSocket
    private let limits: HTTPServerConfiguration
    private var buffer: [UInt8] = []
    /// Reads must finish by this (monotonic ms) while the head is read; nil otherwise.
    private var headDeadlineMs: Int64?
    private static let receiveChunkBytes = 16 * 1024

    init(socket: ConnectionSocket, limits: HTTPServerConfiguration) {
        self.socket = socket
        self.limits = limits
    }

    /// Whether bytes after the request just read have already arrived: the client
    /// sent its next request without waiting for the answer (pipelining).
    var hasBufferedBytes: Bool { !buffer.isEmpty }

    func next() -> Outcome {
        switch readHead() {
        case .failure(let error): return error.outcome
        case .success(let headText):
            let head: HTTPRequestHead
            do throws(HTTPHeadParseError) {
                head = try HTTPRequestHead.parse(headText)
            } catch {
                return .refused(status: 400, reason: error.reason)
            }
            return readBody(for: head)
        }
    }

    /// Sends `100 Continue` when the client waits for it before its body.
    private func continueIfExpected(_ head: HTTPRequestHead) {
        if head.headers.value(named: "Expect")?.lowercased() == "100-continue" {
            _ = socket.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
    }

    private func readBody(for head: HTTPRequestHead) -> Outcome {
        let headers = head.headers
        let isChunked = headers.value(named: "Transfer-Encoding")?.lowercased().contains("chunked") ?? false
        if isChunked {
            guard headers.value(named: "Content-Length") == nil else {
                return .refused(status: 400, reason: "both Content-Length and chunked")
            }
            continueIfExpected(head)
            return readChunkedBody().outcome { head.request(body: $0) }
        }
        guard let lengthText = headers.value(named: "Content-Length") else {
            return .request(head.request(body: []))
        }
        guard let length = Int(lengthText.trimmingSpaces), length >= 0,
              lengthText.trimmingSpaces.allSatisfy(\.isNumber) else {
            return .refused(status: 400, reason: "invalid Content-Length")
        }
        guard length <= limits.maxBodyBytes else { return .refused(status: 413, reason: "body too large") }
        continueIfExpected(head)
        guard let body = readExactly(length) else { return .closed }
        return .request(head.request(body: body))
    }

    private func readChunkedBody() -> BodyResult {
        var body: [UInt8] = []
        while true {
            guard let sizeLine = readLine(maxBytes: 1024) else { return .failure(.closed) }
            let sizeText = sizeLine.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingSpaces, radix: 16), size >= 0 else {
                return .failure(.refused(status: 400, reason: "invalid chunk size"))
            }
            if size == 0 { return skipTrailers().map { body } }
            guard size <= limits.maxBodyBytes - body.count else {
                return .failure(.refused(status: 413, reason: "body too large"))
            }
            guard let data = readExactly(size), let end = readLine(maxBytes: 2) else { return .failure(.closed) }
            guard end.isEmpty else { return .failure(.refused(status: 400, reason: "chunk not terminated")) }
            body += data
        }
    }

    private func skipTrailers() -> Result<Void, OutcomeError> {
        var trailerBytes = 0
        while true {
            guard let line = readLine(maxBytes: limits.maxHeaderBytes) else { return .failure(.closed) }
            if line.isEmpty { return .success(()) }
            trailerBytes += line.utf8.count
            if trailerBytes > limits.maxHeaderBytes { return .failure(.refused(status: 431, reason: "trailers too large")) }
        }
    }

    private typealias BodyResult = Result<[UInt8], OutcomeError>

    /// Reads up to the blank line ending the head, within `headTimeoutMs` and
    /// `maxHeaderBytes` counting every byte (leading blank lines, which are
    /// skipped, included).
    private func readHead() -> Result<String, OutcomeError> {
        headDeadlineMs = MonotonicClock.nowMs() + Int64(max(0, limits.headTimeoutMs))
        defer { headDeadlineMs = nil }
        var skippedBytes = 0
        while true {
            while buffer.first == 13 || buffer.first == 10 {
                buffer.removeFirst()
                skippedBytes += 1
            }
            if let end = headEnd() {
                guard skippedBytes + end.start <= limits.maxHeaderBytes else {
                    return .failure(.refused(status: 431, reason: "request head too large"))
                }
                let text = String(decoding: buffer[0..<end.start], as: UTF8.self)
                buffer.removeFirst(end.afterEnd)
                return .success(text)
            }
            if skippedBytes + buffer.count > limits.maxHeaderBytes {
                return .failure(.refused(status: 431, reason: "request head too large"))
            }
            guard receiveMore() else { return .failure(.closed) }
        }
    }

    /// Where the head ends (`CRLF CRLF` or `LF LF`) and where the body starts.
    private func headEnd() -> (start: Int, afterEnd: Int)? {
        var index = 0
        while index < buffer.count {
            if buffer[index] == 10 {
                if index + 1 < buffer.count, buffer[index + 1] == 10 { return (index, index + 2) }
                if index + 2 < buffer.count, buffer[index + 1] == 13, buffer[index + 2] == 10 {
                    return (index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    /// One line without its CRLF/LF; nil when the connection ended or the line is too long.
    private func readLine(maxBytes: Int) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                var line = Array(buffer[0..<newline])
                buffer.removeFirst(newline + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard buffer.count <= maxBytes + 2, receiveMore() else { return nil }
        }
    }

    private func readExactly(_ count: Int) -> [UInt8]? {
        while buffer.count < count {
            guard receiveMore() else { return nil }
        }
        let bytes = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return bytes
    }

    private func receiveMore() -> Bool {
        var timeoutMs = limits.readTimeoutMs
        if let headDeadlineMs {
            timeoutMs = min(timeoutMs, Int(clamping: max(0, headDeadlineMs - MonotonicClock.nowMs())))
        }
        let bytes = socket.receive(maxBytes: Self.receiveChunkBytes, timeoutMs: timeoutMs)
        buffer += bytes
        return !bytes.isEmpty
    }
}

/// An `Outcome` that ends reading, carried through `Result`.
struct OutcomeError: Error {
    let outcome: HTTPRequestReader.Outcome
    static let closed = OutcomeError(outcome: .closed)
    static func refused(status: Int, reason: String) -> OutcomeError {
        OutcomeError(outcome: .refused(status: status, reason: reason))
    }
}

extension Result where Failure == OutcomeError {
    fileprivate func outcome(_ makeRequest: (Success) -> HTTPRequest) -> HTTPRequestReader.Outcome {
        switch self {
        case .success(let value): return .request(makeRequest(value))
        case .failure(let error): return error.outcome
        }
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
