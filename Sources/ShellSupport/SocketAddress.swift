import Glibc

/// An IPv4 or IPv6 socket address: the project's one place that turns an address
/// literal into a `sockaddr` (`inet_pton`) and a `sockaddr` back into text
/// (`inet_ntop`). It reads literals only: names are `NameResolver`'s, and which
/// texts the config accepts as addresses is `HostAddress`'s (BridgeCore).
public struct SocketAddress {
    private var storage = sockaddr_storage()

    /// `host` an IPv4 (`127.0.0.1`) or IPv6 (`::1`, no brackets) literal and `port`
    /// 0-65535; nil for anything else.
    public init?(literal host: String, port: Int) {
        guard let networkPort = UInt16(exactly: port)?.bigEndian else { return nil }
        let isParsed = withUnsafeMutablePointer(to: &storage) { pointer -> Bool in
            if host.contains(":") {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    address.pointee.sin6_family = sa_family_t(AF_INET6)
                    address.pointee.sin6_port = networkPort
                    return inet_pton(AF_INET6, host, &address.pointee.sin6_addr) == 1
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = networkPort
                return inet_pton(AF_INET, host, &address.pointee.sin_addr) == 1
            }
        }
        guard isParsed else { return nil }
    }

    /// The address a socket is bound to (`getsockname`); nil when the call fails.
    public init?(boundTo descriptor: Int32) {
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0, family == AF_INET || family == AF_INET6 else { return nil }
    }

    /// `AF_INET` or `AF_INET6`.
    public var family: Int32 { Int32(storage.ss_family) }

    /// The port, in host order.
    public var port: Int {
        withUnsafePointer(to: storage) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// Calls `body` with the address as a `sockaddr` and its length (for `bind`, `connect`).
    public func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) rethrows -> Result {
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        return try withUnsafePointer(to: storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }

    /// The numeric text of an IPv4 or IPv6 socket address (`192.168.1.20`, `fd00::1`);
    /// nil for another family.
    public static func numericText(_ address: UnsafePointer<sockaddr>) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let written: UnsafePointer<CChar>? = buffer.withUnsafeMutableBufferPointer { text in
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    var raw = ipv4.pointee.sin_addr
                    return inet_ntop(AF_INET, &raw, text.baseAddress, socklen_t(text.count))
                }
            case AF_INET6:
                return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    var raw = ipv6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &raw, text.baseAddress, socklen_t(text.count))
                }
            default:
                return nil
            }
        }
        guard written != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
