/// One Server-Sent Events frame as a client reads it.
struct SSEFrame: Equatable {
    var id: String?
    var event: String?
    var data: String?
    var comment: String?
}

/// A raw-socket client of `GET /events` that parses frames as they come.
final class EventStreamClient {
    let connection: RawConnection
    private(set) var status = 0
    private(set) var headers: [(name: String, value: String)] = []
    private var bodyStart: Int?

    init(port: Int, token: String, lastEventId: String? = nil) throws {
        connection = try RawConnection(port: port)
        var request = "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAuthorization: Token \(token)\r\n"
        if let lastEventId { request += "Last-Event-ID: \(lastEventId)\r\n" }
        connection.send(request + "\r\n")
        var head: (status: Int, headers: [(name: String, value: String)], bodyStart: Int)?
        connection.read(until: { connection in
            head = TestResponse.parseHead(connection.received)
            return head != nil
        })
        guard let head else { throw TestFailure("no event stream head") }
        status = head.status
        headers = head.headers
        bodyStart = head.bodyStart
    }

    func header(_ name: String) -> String? {
        headers.first(where: { $0.name.lowercased() == name.lowercased() })?.value
    }

    /// The stream's text so far (chunked framing removed).
    var text: String {
        guard let bodyStart else { return "" }
        return String(decoding: TestResponse.dechunk(Array(connection.received[bodyStart...])), as: UTF8.self)
    }

    /// The complete frames so far.
    var frames: [SSEFrame] {
        var blocks = text.components(separatedByBlankLine: ())
        blocks.removeLast()
        return blocks.map(Self.parse)
    }

    /// The frames that carry an event (comments left out).
    var eventFrames: [SSEFrame] { frames.filter { $0.data != nil || $0.event != nil } }

    /// Reads until `condition` holds on the frames so far.
    @discardableResult
    func waitFor(timeoutMs: Int = 5_000, _ condition: @escaping ([SSEFrame]) -> Bool) -> Bool {
        connection.read(until: { _ in condition(self.frames) }, timeoutMs: timeoutMs)
    }

    private static func parse(_ block: String) -> SSEFrame {
        var frame = SSEFrame()
        for line in block.split(separator: "\n") {
            if line.hasPrefix(":") { frame.comment = String(line.dropFirst()).trimmingLeadingSpace; continue }
            let parts = line.split(separator: ":", maxSplits: 1)
            let value = parts.count == 2 ? String(parts[1]).trimmingLeadingSpace : ""
            switch parts[0] {
            case "id": frame.id = value
            case "event": frame.event = value
            case "data": frame.data = frame.data.map { $0 + "\n" + value } ?? value
            default: break
            }
        }
        return frame
    }
}

extension String {
    var trimmingLeadingSpace: String { hasPrefix(" ") ? String(dropFirst()) : self }

    /// Splits on "\n\n"; the last piece is the unfinished rest.
    func components(separatedByBlankLine: ()) -> [String] {
        var pieces: [String] = []
        var current = ""
        var previousWasNewline = false
        for scalar in unicodeScalars {
            if scalar == "\n" && previousWasNewline {
                pieces.append(String(current.dropLast()))
                current = ""
                previousWasNewline = false
                continue
            }
            current.unicodeScalars.append(scalar)
            previousWasNewline = scalar == "\n"
        }
        pieces.append(current)
        return pieces
    }
}
