#if canImport(Glibc)
import Glibc
#endif
import ShellSupport

/// A plain TCP client to 127.0.0.1 or ::1: sends any bytes, reads with deadlines.
/// Used for malformed requests, keep-alive and the event stream.
final class RawConnection {
    private let descriptor: Int32
    private(set) var received: [UInt8] = []
    private(set) var isClosedByPeer = false

    init(port: Int, host: String = "127.0.0.1") throws {
        guard let address = SocketAddress(literal: host, port: port) else { throw TestFailure("not an address literal: \(host)") }
        descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket failed") }
        let result = address.withSockaddr { connect(descriptor, $0, $1) }
        guard result == 0 else {
            close(descriptor)
            throw TestFailure("connect to \(host):\(port) failed (errno \(errno))")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Closes the sending side only.
    func shutdownWrite() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// Reads whatever arrives within `timeoutMs`; false when nothing came.
    @discardableResult
    func readSome(timeoutMs: Int32) -> Bool {
        var descriptorPoll = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptorPoll, 1, timeoutMs) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 {
            isClosedByPeer = true
            return false
        }
        received += buffer[0..<count]
        return true
    }

    var receivedText: String { String(decoding: received, as: UTF8.self) }

    /// Reads until `condition` holds on what was received, the peer closes, or the deadline.
    @discardableResult
    func read(until condition: (RawConnection) -> Bool, timeoutMs: Int = 5_000) -> Bool {
        let deadline = Deadline(milliseconds: timeoutMs)
        while !condition(self) {
            if isClosedByPeer || deadline.hasPassed { return false }
            readSome(timeoutMs: 50)
        }
        return true
    }

    /// Reads until the peer closes (or the deadline).
    @discardableResult
    func readToEnd(timeoutMs: Int = 5_000) -> Bool {
        let deadline = Deadline(milliseconds: timeoutMs)
        while !isClosedByPeer && !deadline.hasPassed { readSome(timeoutMs: 50) }
        return isClosedByPeer
    }

    /// Reads one complete response (Content-Length framed) and removes it from the buffer.
    func readResponse(timeoutMs: Int = 5_000) -> TestResponse? {
        var parsed: TestResponse?
        read(until: { connection in
            parsed = TestResponse.parseComplete(connection.received)
            return parsed != nil
        }, timeoutMs: timeoutMs)
        if let parsed { received.removeFirst(parsed.wireLength) }
        return parsed
    }
}

/// An error thrown by test helpers.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A point in monotonic time some milliseconds ahead.
struct Deadline {
    private let endMs: Int64

    init(milliseconds: Int) { endMs = Self.monotonicMs() + Int64(milliseconds) }

    var hasPassed: Bool { Self.monotonicMs() >= endMs }

    static func monotonicMs() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
