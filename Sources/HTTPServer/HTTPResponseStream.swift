import ShellSupport

/// The writing end of a streamed (chunked) response, handed to a stream handler.
public final class HTTPResponseStream: Sendable {
    private let socket: ConnectionSocket
    private let isServerStopping: @Sendable () -> Bool
    private let hasFailed = ConditionLock(false)

    init(socket: ConnectionSocket, isServerStopping: @escaping @Sendable () -> Bool) {
        self.socket = socket
        self.isServerStopping = isServerStopping
    }

    /// Writes `text` as one chunk; false when the client is gone (the stream is then over).
    @discardableResult
    public func write(_ text: String) -> Bool {
        write(bytes: Array(text.utf8))
    }

    /// Writes `bytes` as one chunk; false when the client is gone.
    @discardableResult
    public func write(bytes: [UInt8]) -> Bool {
        guard isOpen, !bytes.isEmpty else { return isOpen }
        let frame = Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
        let sent = socket.send(frame)
        if !sent { hasFailed.withLock { $0 = true } }
        return sent
    }

    /// False once the client went away, a write failed, or the server is stopping.
    public var isOpen: Bool {
        !hasFailed.withLock { $0 } && !isServerStopping() && !socket.isPeerGone
    }

    /// Writes the terminating chunk (called by the server after the handler returns).
    func finish() {
        guard isOpen else { return }
        _ = socket.send(Array("0\r\n\r\n".utf8))
    }
}
