import ShellSupport

/// What runs off the loop (a streamed answer's body, an answer that
/// must wait: `.deferred`) hands the loop for one connection: bytes to send, bounded for a
/// stream (a client that reads slower than the stream writes is dropped, not
/// buffered without limit), and how the answer ended. Any thread writes; the
/// loop takes.
final class HTTPConnectionOutbox: Sendable {
    /// How the answer ended, once it has.
    enum Ending: Sendable, Equatable {
        /// Complete; the connection stays open for the next request when `keepAlive`.
        case complete(keepAlive: Bool)
        /// No answer: reset the connection.
        case reset
    }

    struct Taken {
        var bytes: [UInt8]
        var ending: Ending?
    }

    private struct State {
        var bytes: [UInt8] = []
        var ending: Ending?
        var isFailed = false
        var isStreaming = false
    }

    private let state = ConditionLock(State())
    private let maxStreamedBytes: Int
    private let wake: @Sendable () -> Void

    init(maxStreamedBytes: Int, wake: @escaping @Sendable () -> Void) {
        self.maxStreamedBytes = maxStreamedBytes
        self.wake = wake
    }

    /// Queues streamed bytes; false once the connection is over or the client is
    /// more than `maxStreamedBytes` behind (the connection is then dropped).
    func stream(_ bytes: [UInt8]) -> Bool {
        let isQueued = state.withLock { state -> Bool in
            guard !state.isFailed, state.ending == nil else { return false }
            guard state.bytes.count + bytes.count <= maxStreamedBytes else {
                state.isFailed = true
                return false
            }
            state.bytes += bytes
            state.isStreaming = true
            return true
        }
        wake()
        return isQueued
    }

    /// The client closed its side: a stream is over (no one reads it); a complete
    /// answer still goes out.
    func endStreamForGoneClient() {
        state.withLock { state in if state.isStreaming { state.isFailed = true } }
    }

    /// Ends the answer with its last bytes (a complete answer's whole text, unbounded:
    /// it is the handler's own).
    func end(with bytes: [UInt8], _ ending: Ending) {
        state.withLock { state in
            guard state.ending == nil else { return }
            state.bytes += bytes
            state.ending = ending
        }
        wake()
    }

    /// The connection is over (the client left, a write failed, the server stops).
    func fail() { state.withLock { $0.isFailed = true } }

    var isFailed: Bool { state.withLock { $0.isFailed } }

    /// Whether the loop has something to take: bytes, the ending, a failure.
    var hasNews: Bool { state.withLock { !$0.bytes.isEmpty || $0.ending != nil || $0.isFailed } }

    /// What is queued, handed to the loop, and the ending once it came.
    func take() -> Taken {
        state.withLock { state in
            defer { state.bytes = [] }
            return Taken(bytes: state.bytes, ending: state.ending)
        }
    }
}
