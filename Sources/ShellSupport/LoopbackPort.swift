import Glibc

/// Free ports and readiness on 127.0.0.1.
public enum LoopbackPort {
    /// A port the kernel says is free right now (bind to 0, read, close).
    public static func free() -> Int? {
        guard let address = loopback(port: 0) else { return nil }
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { return nil }
        defer { close(socketDescriptor) }
        guard address.withSockaddr({ bind(socketDescriptor, $0, $1) }) == 0 else { return nil }
        return SocketAddress(boundTo: socketDescriptor)?.port
    }

    /// Waits until something accepts connections on `port`, up to `timeoutMs`.
    public static func waitUntilAccepting(port: Int, timeoutMs: Int) -> Bool {
        let deadline = MonotonicClock.nowMs() + Int64(timeoutMs)
        while MonotonicClock.nowMs() < deadline {
            if canConnect(port: port) { return true }
            usleep(20_000)
        }
        return false
    }

    public static func canConnect(port: Int) -> Bool {
        guard let socketDescriptor = connected(port: port) else { return false }
        close(socketDescriptor)
        return true
    }

    /// A socket connected to 127.0.0.1:`port` (blocking), nil when refused; the caller closes it.
    public static func connected(port: Int) -> Int32? {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { return nil }
        let isConnected = loopback(port: port)?.withSockaddr { connect(socketDescriptor, $0, $1) == 0 } ?? false
        guard isConnected else {
            close(socketDescriptor)
            return nil
        }
        return socketDescriptor
    }

    private static func loopback(port: Int) -> SocketAddress? {
        SocketAddress(literal: "127.0.0.1", port: port)
    }
}
