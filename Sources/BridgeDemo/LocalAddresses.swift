import Glibc
import ShellSupport

/// The addresses of this machine's interfaces that are up (getifaddrs), for the demo
/// to print when its page listens on every address (`--listen 0.0.0.0` or `::`):
/// the addresses found, not a placeholder (issue 41).
enum LocalAddresses {
    /// At most this many are printed.
    static let maxAddresses = 16

    /// IPv4 addresses, and IPv6 ones too when `includeIPv6`, loopback last; link-local
    /// IPv6 addresses (which need a zone to be reached) are left out.
    static func found(includeIPv6: Bool) -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry, addresses.count < maxAddresses * 2 {
            entry = current.pointee.ifa_next
            guard current.pointee.ifa_flags & UInt32(IFF_UP) != 0, let socketAddress = current.pointee.ifa_addr else { continue }
            if let text = text(socketAddress, includeIPv6: includeIPv6), !addresses.contains(text) { addresses.append(text) }
        }
        let loopback = addresses.filter(isLoopback)
        return Array((addresses.filter { !isLoopback($0) } + loopback).prefix(maxAddresses))
    }

    static func isLoopback(_ address: String) -> Bool { address.hasPrefix("127.") || address == "::1" }

    /// The numeric text of an IPv4 or (non-link-local) IPv6 socket address.
    static func text(_ address: UnsafeMutablePointer<sockaddr>, includeIPv6: Bool) -> String? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return SocketAddress.numericText(address)
        case AF_INET6 where includeIPv6:
            guard let text = SocketAddress.numericText(address) else { return nil }
            return text.lowercased().hasPrefix("fe80:") ? nil : text
        default:
            return nil
        }
    }

    /// The page's addresses for the banner: `http://ADDRESS:PORT/` for each address
    /// found when `host` is every address, else the one host.
    static func pageURLs(host: String, port: Int, found: (Bool) -> [String] = LocalAddresses.found) -> [String] {
        let everyAddress = host == "0.0.0.0" || host == "::"
        let hosts = everyAddress ? found(host == "::") : [host]
        return hosts.map { "http://\($0.contains(":") ? "[\($0)]" : $0):\(port)/" }
    }
}
