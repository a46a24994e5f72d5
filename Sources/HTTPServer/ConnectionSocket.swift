#if canImport(Glibc)
import Glibc
#endif

/// One accepted connection's socket, non-blocking: reads and writes never wait
/// (the loop waits for all of them at once). Used on the loop's thread only.
final class ConnectionSocket {
    /// What a read gave.
    enum Received {
        case bytes(ArraySlice<UInt8>)
        case wouldBlock
        /// End of stream, or an error: either way nothing more will come.
        case ended
    }

    /// What a write did.
    enum Sent {
        case bytes(Int)
        case wouldBlock
        case failed
    }

    let descriptor: Int32
    private var isClosed = false

    init(fileDescriptor: Int32) {
        descriptor = fileDescriptor
        _ = fcntl(fileDescriptor, F_SETFL, fcntl(fileDescriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fileDescriptor, F_SETFD, FD_CLOEXEC)
        var noDelay: Int32 = 1
        setsockopt(fileDescriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close() }

    /// Up to `buffer.count` bytes, read into `buffer`.
    func receive(into buffer: inout [UInt8]) -> Received {
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in recv(descriptor, raw.baseAddress, raw.count, 0) }
            if count > 0 { return .bytes(buffer[0..<count]) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .wouldBlock }
            return .ended
        }
    }

    /// Writes what the socket takes now of `bytes`.
    func send(_ bytes: ArraySlice<UInt8>) -> Sent {
        while true {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if written >= 0 { return .bytes(written) }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed
        }
    }

    /// Closes the socket at once with a TCP reset (SO_LINGER 0): the peer sees
    /// "connection reset by peer", not an orderly end.
    func reset() {
        var abortive = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &abortive, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    /// Closes the socket (once).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(descriptor)
    }
}
