/// A listening address, read the same way by `check`, the running daemon's
/// `status.listen` and `demo --listen`, so whatever one accepts binds
/// everywhere: an IPv4 literal, an IPv6 literal in brackets, or `localhost`
/// (the IPv4 loopback), then `:PORT`. The host is read by `HostAddress`, the
/// one address parser.
public struct ListenAddress: Sendable, Equatable {
    /// The literal address to bind (`127.0.0.1`, `::1`, ...), without brackets.
    public var host: String
    public var port: Int
    /// Whether only this machine can connect (127.0.0.0/8, ::1, ::ffff:127.x.x.x).
    public var isLoopback: Bool

    public init(host: String, port: Int, isLoopback: Bool) {
        self.host = host
        self.port = port
        self.isLoopback = isLoopback
    }

    /// Nil when `text` is not `HOST:PORT` with a literal host or `localhost` and a port 1-65535.
    public static func parse(_ text: String) -> ListenAddress? {
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex,
              let port = Int(text[text.index(after: colon)...]), (1...65_535).contains(port),
              text[text.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return nil }
        let host = text[..<colon]
        // Before a port, an IPv6 literal is in brackets (`::1:80` would be ambiguous).
        guard !host.contains(":") || host.hasPrefix("[") else { return nil }
        return parse(host: host, port: port)
    }

    /// The same address rules for a host given alone (`demo --listen HOST`, the
    /// port apart): an IPv4 literal, an IPv6 literal with or without brackets,
    /// or `localhost`. Nil otherwise.
    public static func parse<Host: StringProtocol>(host text: Host, port: Int) -> ListenAddress? {
        let bracketed = text.hasPrefix("[") && text.hasSuffix("]")
        let inner = bracketed ? String(text.dropFirst().dropLast()) : String(text)
        guard case .success(let address) = HostAddress.parse(inner) else { return nil }
        switch address {
        case .name(let name):
            return name == "localhost" && !bracketed ? ListenAddress(host: "127.0.0.1", port: port, isLoopback: true) : nil
        case .ipv4:
            return bracketed ? nil : ListenAddress(host: inner, port: port, isLoopback: address.isLoopback)
        case .ipv6:
            return ListenAddress(host: inner, port: port, isLoopback: address.isLoopback)
        }
    }
}
