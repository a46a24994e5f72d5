/// The writing end of a streamed (chunked) response, handed to a stream handler
/// on a thread of its own; what it writes goes to the server's loop through the
/// connection's bounded outbox.
public final class HTTPResponseStream: Sendable {
    private let outbox: HTTPConnectionOutbox

    init(outbox: HTTPConnectionOutbox) { self.outbox = outbox }

    /// Writes `text` as one chunk; false when the client is gone (the stream is then over).
    @discardableResult
    public func write(_ text: String) -> Bool {
        write(bytes: Array(text.utf8))
    }

    /// Writes `bytes` as one chunk; false when the client is gone, or so far behind
    /// that the server dropped it.
    @discardableResult
    public func write(bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return isOpen }
        let frame = Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
        return outbox.stream(frame)
    }

    /// False once the client went away, a write failed, or the server is stopping.
    public var isOpen: Bool { !outbox.isFailed }

    /// Writes the terminating chunk (called by the server after the handler returns).
    func finish() {
        outbox.end(with: Array("0\r\n\r\n".utf8), .complete(keepAlive: false))
    }
}
