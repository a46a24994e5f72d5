import Glibc

/// The address in `$NOTIFY_SOCKET`: a filesystem path or an abstract socket (`@name`).
public enum NotifySocketAddress: Equatable, Sendable {
    /// A socket bound at an absolute filesystem path.
    case path(String)
    /// A Linux abstract socket; the name excludes the leading `@`.
    case abstract(String)

    /// Parses the value of `$NOTIFY_SOCKET`.
    public init(parsing value: String) throws(SystemdNotifyError) {
        if value.hasPrefix("/") {
            self = .path(value)
        } else if value.hasPrefix("@"), value.count > 1 {
            self = .abstract(String(value.dropFirst()))
        } else {
            throw .unsupportedSocketAddress(value)
        }
        _ = try socketAddressBytes()
    }

    /// Bytes for `sun_path` and the matching `socklen_t` for `sendto(2)`.
    ///
    /// An abstract address starts with a NUL byte and has no trailing NUL; a path
    /// address ends with one.
    func socketAddressBytes() throws(SystemdNotifyError) -> [UInt8] {
        let limit = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        let bytes: [UInt8]
        switch self {
        case .path(let path): bytes = Array(path.utf8) + [0]
        case .abstract(let name): bytes = [0] + Array(name.utf8)
        }
        guard bytes.count <= limit else {
            throw .socketAddressTooLong(byteCount: bytes.count, limit: limit)
        }
        return bytes
    }

    /// Calls `body` with a filled `sockaddr_un` and its length.
    func withSocketAddress<Result>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) throws(SystemdNotifyError) -> Result {
        let pathBytes = try socketAddressBytes()
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { pathBuffer in
            pathBuffer.copyBytes(from: pathBytes)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        let length = socklen_t(pathOffset + pathBytes.count)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
