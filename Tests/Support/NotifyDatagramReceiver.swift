import Glibc

/// A bound AF_UNIX datagram socket standing in for systemd's notify socket, for the
/// daemon's notifier tests (BridgeDaemonTests) and the real binary's (IntegrationTests).
public final class NotifyDatagramReceiver {
    /// Where the socket is bound: a path, or a name in the abstract namespace (`@name`).
    public enum Address: Sendable {
        case path(String)
        case abstract(String)
    }

    let descriptor: Int32

    public init(address: Address) throws {
        let pathBytes: [UInt8] = switch address {
        case .path(let path): Array(path.utf8)
        case .abstract(let name): [0] + Array(name.utf8)
        }
        var socketAddress = sockaddr_un()
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        guard pathBytes.count < capacity else { throw TestSupportError("notify socket address too long: \(address)") }
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: pathBytes) }
        let length = socklen_t((MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2) + pathBytes.count)
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket failed, errno \(errno)") }
        let result = withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard result == 0 else {
            close(descriptor)
            throw TestSupportError("bind failed, errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// The next datagram, waiting at most `deadlineMs`.
    public func receive(deadlineMs: Int32 = 5_000) throws -> String {
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pollDescriptor, 1, deadlineMs)
        guard ready == 1 else { throw TestSupportError("no datagram within \(deadlineMs) ms") }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw TestSupportError("recv failed, errno \(errno)") }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// True when no datagram is waiting right now.
    public func isEmpty() -> Bool {
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&pollDescriptor, 1, 0) == 0
    }
}
