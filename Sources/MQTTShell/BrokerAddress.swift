import Glibc

/// What the broker's host setting is, for the connect.
enum BrokerAddress {
    /// A literal IPv4 or IPv6 address: connecting needs no name lookup.
    static func isLiteral(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }
}
