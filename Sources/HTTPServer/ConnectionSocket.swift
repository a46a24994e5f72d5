#if canImport(Glibc)
import Glibc
#endif
import ShellSupport

/// One accepted connection's socket: blocking reads and writes with timeouts,
/// shut down from any thread, closed exactly once.
final class ConnectionSocket: Sendable {
    private let fileDescriptor: Int32
    private let isClosed = ConditionLock(false)

    init(fileDescriptor: Int32, readTimeoutMs: Int, writeTimeoutMs: Int) {
        self.fileDescriptor = fileDescriptor
        Self.setTimeout(fileDescriptor, option: SO_RCVTIMEO, milliseconds: readTimeoutMs)
        Self.setTimeout(fileDescriptor, option: SO_SNDTIMEO, milliseconds: writeTimeoutMs)
        var noDelay: Int32 = 1
        setsockopt(fileDescriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func setTimeout(_ descriptor: Int32, option: Int32, milliseconds: Int) {
        var time = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        setsockopt(descriptor, SOL_SOCKET, option, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Up to `maxBytes` bytes, waiting at most `timeoutMs` (and the socket's own
    /// read timeout); empty on end of stream, timeout or error.
    func receive(maxBytes: Int, timeoutMs: Int) -> [UInt8] {
        guard timeoutMs > 0 else { return [] }
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat { ready = poll(&descriptor, 1, Int32(clamping: timeoutMs)) } while ready < 0 && errno == EINTR
        guard ready > 0 else { return [] }
        return receive(maxBytes: maxBytes)
    }

    /// Up to `maxBytes` bytes; empty on end of stream, timeout or error.
    func receive(maxBytes: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        let count = buffer.withUnsafeMutableBytes { raw in
            recv(fileDescriptor, raw.baseAddress, maxBytes, 0)
        }
        guard count > 0 else { return [] }
        return Array(buffer[0..<count])
    }

    /// Writes all of `bytes`; false when the peer is gone or stalled past the timeout.
    /// `stalled(true)` is called when the write has to wait for the peer to read (its
    /// buffers are full: a client that pipelines and never reads), `stalled(false)`
    /// when it no longer waits, so the server can count such a connection as idle.
    func send(_ bytes: [UInt8], stalled: (Bool) -> Void = { _ in }) -> Bool {
        var offset = 0
        var isStalled = false
        defer { if isStalled { stalled(false) } }
        while offset < bytes.count {
            // Without waiting first; once stalled, waiting up to the socket's write timeout.
            let flags = Int32(MSG_NOSIGNAL) | (isStalled ? 0 : Int32(MSG_DONTWAIT))
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(fileDescriptor, raw.baseAddress.map { $0 + offset }, bytes.count - offset, flags)
            }
            if written < 0 && errno == EINTR { continue }
            if written < 0, !isStalled, errno == EAGAIN || errno == EWOULDBLOCK {
                isStalled = true
                stalled(true)
                continue
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Whether the peer has closed or reset its side (checked without blocking).
    var isPeerGone: Bool {
        let readHangUp: Int16 = 0x2000  // POLLRDHUP, not exported by the Glibc module
        let hangUps: Int16 = readHangUp | Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN) | readHangUp, revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        if descriptor.revents & hangUps != 0 { return true }
        var byte: UInt8 = 0
        return recv(fileDescriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    /// Wakes any blocked read or write; the socket stays allocated until `close()`.
    func shutdownBothWays() {
        isClosed.withLock { closed in
            if !closed { _ = Glibc.shutdown(fileDescriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Closes the socket at once with a TCP reset (SO_LINGER 0): the peer sees
    /// "connection reset by peer", not an orderly end.
    func reset() {
        var abortive = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fileDescriptor, SOL_SOCKET, SO_LINGER, &abortive, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    /// Closes the socket (once).
    func close() {
        isClosed.withLock { closed in
            guard !closed else { return }
            closed = true
            _ = Glibc.close(fileDescriptor)
        }
    }
}
