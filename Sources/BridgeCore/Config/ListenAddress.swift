/// A listening address, read the same way by `check`, the running daemon's
/// `status.listen` and `demo --listen`, so whatever one accepts binds
/// everywhere: an IPv4 literal, an IPv6 literal in brackets, or `localhost`
/// (the IPv4 loopback), then `:PORT`.
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
        let host = Substring(text)
        if host == "localhost" { return ListenAddress(host: "127.0.0.1", port: port, isLoopback: true) }
        if let octets = ipv4Octets(host) { return ListenAddress(host: String(host), port: port, isLoopback: octets[0] == 127) }
        let inner = host.hasPrefix("[") && host.hasSuffix("]") ? host.dropFirst().dropLast() : host
        guard let groups = ipv6Groups(inner) else { return nil }
        let isLoopback = groups == [0, 0, 0, 0, 0, 0, 0, 1] || (groups[0..<5].allSatisfy { $0 == 0 } && groups[5] == 0xFFFF && groups[6] >> 8 == 127)
        return ListenAddress(host: String(inner), port: port, isLoopback: isLoopback)
    }

    /// Four decimal octets, no leading zeros (what `inet_pton` accepts).
    static func ipv4Octets(_ text: Substring) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCIIDigit), part.count == 1 || part.first != "0",
                  let value = Int(part), value <= 255 else { return nil }
            octets.append(value)
        }
        return octets
    }

    /// Eight 16-bit groups: hex groups, at most one `::`, an optional dotted IPv4 tail.
    static func ipv6Groups(_ text: Substring) -> [Int]? {
        guard !text.isEmpty, text.count <= 45 else { return nil }
        let halves = text.splitAtDoubleColons()
        guard halves.count <= 2 else { return nil }
        guard let head = groups(halves[0], allowsIPv4Tail: halves.count == 1),
              let tail = halves.count == 2 ? groups(halves[1], allowsIPv4Tail: true) : [] else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard head.count + tail.count <= 7 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }

    private static func groups(_ text: Substring, allowsIPv4Tail: Bool) -> [Int]? {
        if text.isEmpty { return [] }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        var values: [Int] = []
        for (index, part) in parts.enumerated() {
            if index == parts.count - 1, allowsIPv4Tail, part.contains("."), let octets = ipv4Octets(part) {
                values += [octets[0] << 8 | octets[1], octets[2] << 8 | octets[3]]
                continue
            }
            guard (1...4).contains(part.count), let value = Int(part, radix: 16), part.allSatisfy(\.isHexDigit) else { return nil }
            values.append(value)
        }
        return values
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Substring {
    /// Splits at each `::` (the IPv6 zero run).
    fileprivate func splitAtDoubleColons() -> [Substring] {
        var result: [Substring] = []
        var start = startIndex
        var index = startIndex
        while index < endIndex {
            let next = self.index(after: index)
            if self[index] == ":", next < endIndex, self[next] == ":" {
                result.append(self[start..<index])
                start = self.index(after: next)
                index = start
                continue
            }
            index = next
        }
        result.append(self[start..<endIndex])
        return result
    }
}
