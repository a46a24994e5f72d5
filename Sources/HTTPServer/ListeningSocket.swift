#if canImport(Glibc)
import Glibc
#endif
import ShellSupport

/// Opens a listening TCP socket, non-blocking, on an IPv4 or IPv6 literal address
/// (the project's one listener: the HTTP server's, the bench's `--floor` peers).
public enum ListeningSocket {
    static let backlog: Int32 = 128

    /// A socket listening on `host`:`port` (0: the kernel picks) and the port it got; the caller closes it.
    public static func open(host: String, port: Int) throws(HTTPServerError) -> (descriptor: Int32, port: Int) {
        guard let address = SocketAddress(literal: host, port: port) else { throw .invalidHost(host) }
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw .systemCall(name: "socket", errno: errno) }
        do throws(HTTPServerError) {
            var reuse: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
            guard address.withSockaddr({ bind(descriptor, $0, $1) }) == 0 else { throw .systemCall(name: "bind", errno: errno) }
            guard listen(descriptor, backlog) == 0 else { throw .systemCall(name: "listen", errno: errno) }
            guard let bound = SocketAddress(boundTo: descriptor) else { throw .systemCall(name: "getsockname", errno: errno) }
            return (descriptor, bound.port)
        } catch {
            _ = close(descriptor)
            throw error
        }
    }
}
