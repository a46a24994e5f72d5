import CCurl
import ShellSupport

/// One open event stream: libcurl's callbacks land here. Lives for one
/// connection, on the loop's thread.
final class SSEConnection {
    let handler: @Sendable (SSEClientEvent) -> Void
    let recordLastEventId: @Sendable (String) -> Void
    let deadConnectionTimeoutMs: Int
    /// Reads the monotonic clock (the board's, or a test's simulated one).
    let clock: BoardClock
    var parser: SSEParser
    var status = 0
    var contentType = ""
    var dateHeader: String?
    var isOpen = false
    /// When the head was accepted (monotonic ms).
    var openedAtMs: Int64?
    var refusal: String?
    var isDead = false
    var lastByteAtMs: Int64
    var retryMs: Int?
    var eventCount = 0

    init(parser: SSEParser, deadConnectionTimeoutMs: Int, clock: BoardClock, recordLastEventId: @escaping @Sendable (String) -> Void,
         handler: @escaping @Sendable (SSEClientEvent) -> Void) {
        self.clock = clock
        lastByteAtMs = clock.monotonicMs()
        self.recordLastEventId = recordLastEventId
        self.parser = parser
        self.deadConnectionTimeoutMs = deadConnectionTimeoutMs
        self.handler = handler
    }

    /// When the stream counts as dead unless a byte comes first (monotonic ms).
    var deadAtMs: Int64 { lastByteAtMs + Int64(deadConnectionTimeoutMs) }

    /// Makes `easy`'s callbacks land here; the caller keeps this connection alive
    /// for as long as the transfer runs.
    func attach(to easy: CurlEasy) throws(CurlError) {
        try easy.setReceiver(self, body: Self.writeBody, header: Self.writeHeader)
    }

    /// A header line; at the blank line ending the head, the stream is judged.
    func header(_ line: UnsafeRawBufferPointer) -> Bool {
        lastByteAtMs = clock.monotonicMs()
        switch ResponseHeadLine(line) {
        case .status(let code):
            status = code
            contentType = ""
        case .end:
            return headEnded()
        case .field(let name, let value):
            if ResponseHeadLine.name(name, is: Self.contentTypeName) { contentType = String(decoding: value, as: UTF8.self).lowercased() }
            if ResponseHeadLine.name(name, is: Self.dateName) { dateHeader = String(decoding: value, as: UTF8.self) }
        case .other:
            break
        }
        return true
    }

    private static let contentTypeName = Array("content-type".utf8)
    private static let dateName = Array("date".utf8)

    private func headEnded() -> Bool {
        guard status == 200 else {
            refusal = "HTTP \(status)"
            return false
        }
        guard contentType.hasPrefix("text/event-stream") else {
            refusal = "wrong content type '\(contentType)'"
            return false
        }
        isOpen = true
        openedAtMs = clock.monotonicMs()
        handler(.connected(dateHeader: dateHeader))
        return true
    }

    func body(_ bytes: UnsafeRawBufferPointer) {
        lastByteAtMs = clock.monotonicMs()
        let idBefore = parser.lastEventId
        let outputs = parser.feed(bytes)
        if let id = parser.lastEventId, id != idBefore { recordLastEventId(id) }
        for output in outputs {
            switch output {
            case .event(let event):
                eventCount += 1
                handler(.event(event))
            case .retry(let milliseconds): retryMs = milliseconds
            case .oversized: handler(.invalidEvent(reason: "event larger than \(parser.maxEventBytes) bytes skipped"))
            }
        }
    }

    static let writeBody: sb_curl_data_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let connection = Unmanaged<SSEConnection>.fromOpaque(context).takeUnretainedValue()
        connection.body(UnsafeRawBufferPointer(start: data, count: size * count))
        return size * count
    }

    static let writeHeader: sb_curl_data_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let connection = Unmanaged<SSEConnection>.fromOpaque(context).takeUnretainedValue()
        return connection.header(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
    }
}
