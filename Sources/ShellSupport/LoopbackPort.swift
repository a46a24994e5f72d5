import Glibc

/// Free ports and readiness on 127.0.0.1.
public enum LoopbackPort {
    /// A port the kernel says is free right now (bind to 0, read, close).
    public static func free() -> Int? {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { return nil }
        defer { close(socketDescriptor) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        return named == 0 ? Int(UInt16(bigEndian: address.sin_port)) : nil
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
        var address = loopback(port: port)
        let isConnected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard isConnected else {
            close(socketDescriptor)
            return nil
        }
        return socketDescriptor
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
