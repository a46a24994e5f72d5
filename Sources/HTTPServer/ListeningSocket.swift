#if canImport(Glibc)
import Glibc
#endif

/// Opens a listening TCP socket, non-blocking, on an IPv4 or IPv6 literal address
/// (the project's one listener: the HTTP server's, the bench's `--floor` peers).
public enum ListeningSocket {
    static let backlog: Int32 = 128

    /// A socket listening on `host`:`port` (0: the kernel picks) and the port it got; the caller closes it.
    public static func open(host: String, port: Int) throws(HTTPServerError) -> (descriptor: Int32, port: Int) {
        let isIPv6 = host.contains(":")
        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw .systemCall(name: "socket", errno: errno) }
        do throws(HTTPServerError) {
            var reuse: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
            if isIPv6 { try bindIPv6(descriptor, host: host, port: port) } else { try bindIPv4(descriptor, host: host, port: port) }
            guard listen(descriptor, backlog) == 0 else { throw .systemCall(name: "listen", errno: errno) }
            return (descriptor, try boundPort(descriptor))
        } catch {
            _ = close(descriptor)
            throw error
        }
    }

    private static func bindIPv4(_ descriptor: Int32, host: String, port: Int) throws(HTTPServerError) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw .invalidHost(host) }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw .systemCall(name: "bind", errno: errno) }
    }

    private static func bindIPv6(_ descriptor: Int32, host: String, port: Int) throws(HTTPServerError) {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { throw .invalidHost(host) }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard result == 0 else { throw .systemCall(name: "bind", errno: errno) }
    }

    private static func boundPort(_ descriptor: Int32) throws(HTTPServerError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { throw .systemCall(name: "getsockname", errno: errno) }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }
}
