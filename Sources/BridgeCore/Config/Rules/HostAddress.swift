/// The one reading of a host the bridge connects to or listens on: `check`
/// and `run` (the broker's `mqtt.host`, the API's URL), `discover --mqtt-host`
/// and the status listener (`ListenAddress`) all use it, so what one accepts
/// is what every other connects to, and the resolver never reads it otherwise.
///
/// A literal is four decimal numbers of 0 to 255 without leading zeros, or an
/// IPv6 address (without brackets); a name is ASCII letters, digits, '-', '_'
/// and '.'. Refused, with the fix: a number with a leading zero (getaddrinfo
/// reads `010` as octal, so `127.0.0.010` would connect to 127.0.0.8), fewer
/// or more than four numbers or hex ones (`127.1`, `0x7f.0.0.1`: the resolver
/// reads them too), a URL (`mqtt://host:1883`), a port, an IPv6 address in
/// brackets, spaces and control characters.
public enum HostAddress: Sendable, Equatable {
    /// Four octets.
    case ipv4([Int])
    /// Eight 16-bit groups.
    case ipv6([Int])
    /// A host name, looked up off the loop.
    case name(String)

    /// Why a text is not a host, with the fix.
    public struct Refusal: Error, Sendable, Equatable {
        public var message: String
    }

    /// The host `text` names, or why it is none.
    public static func parse(_ text: String) -> Result<HostAddress, Refusal> {
        func refuse(_ message: String) -> Result<HostAddress, Refusal> { .failure(Refusal(message: message)) }
        guard !text.isEmpty else { return refuse("must not be empty: write a host name or an IP address") }
        if let bad = text.unicodeScalars.first(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return refuse("must be a host name or IP address without \(APIURLRules.describe(bad)) (it would never resolve)")
        }
        if let scheme = text.firstRange(of: "://") {
            let (host, port) = hostAndPort(of: text[scheme.upperBound...].prefix { $0 != "/" })
            return refuse("is a URL: write the host alone, \(host)\(port ? " (the port goes in 'port')" : "")")
        }
        let inner = text.hasPrefix("[") && text.hasSuffix("]") ? Substring(text).dropFirst().dropLast() : nil
        if let inner {
            guard ipv6Groups(inner) != nil else { return refuse("is not an IPv6 address in brackets (like [::1])") }
            return refuse("is in brackets: write the IPv6 address without brackets, \(inner)")
        }
        if text.contains(":") {
            if let groups = ipv6Groups(Substring(text)) { return .success(.ipv6(groups)) }
            let (host, port) = hostAndPort(of: Substring(text))
            if port, !host.contains(":") { return refuse("has a port: write the host alone, \(host) (the port goes in 'port')") }
            return refuse("is not an IPv6 address (like fe80::1), not '\(text)'")
        }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        // A last label starting with a digit is a number to the resolver, never a name.
        if labels.last?.first?.isASCIIDigit == true {
            if let octets = ipv4Octets(Substring(text)) { return .success(.ipv4(octets)) }
            return refuse(numberProblem(text, labels))
        }
        let isName = text.count <= 253 && text.unicodeScalars.allSatisfy {
            ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == "."
        }
        guard isName else {
            return refuse("must be a host name (ASCII letters, digits, '-' and '.') or an IP address, not '\(text)'")
        }
        return .success(.name(text))
    }

    /// Whether `text` is a literal address (connecting needs no name lookup).
    public static func isLiteral(_ text: String) -> Bool {
        guard case .success(let address) = parse(text) else { return false }
        return address.isLiteral
    }

    /// An IPv4 or IPv6 address, not a name.
    public var isLiteral: Bool {
        if case .name = self { return false }
        return true
    }

    /// Only this machine: 127.0.0.0/8, ::1, ::ffff:127.x.x.x, `localhost`.
    public var isLoopback: Bool {
        switch self {
        case .ipv4(let octets): return octets.first == 127
        case .ipv6(let groups):
            return groups == [0, 0, 0, 0, 0, 0, 0, 1] || (groups[0..<5].allSatisfy { $0 == 0 } && groups[5] == 0xFFFF && groups[6] >> 8 == 127)
        case .name(let name): return name.lowercased() == "localhost"
        }
    }

    /// Four decimal numbers of 0 to 255, or the fix.
    private static func numberProblem(_ text: String, _ labels: [Substring]) -> String {
        let quad = "must be an IPv4 address of four numbers of 0 to 255 (like 192.168.1.10), not '\(text)'"
        guard labels.count == 4, labels.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCIIDigit) }) else { return quad }
        let decimal = labels.compactMap { Int($0) }
        guard decimal.count == 4, decimal.allSatisfy({ $0 <= 255 }) else { return quad }
        let fix = decimal.map(String.init).joined(separator: ".")
        // What the resolver would read: a leading zero makes a number octal.
        let octal = labels.map { $0.count > 1 && $0.first == "0" ? Int($0.dropFirst(), radix: 8) : Int($0) }
        let reading = octal.allSatisfy { ($0 ?? 256) <= 255 }
            ? " (so it would connect to \(octal.map { String($0 ?? 0) }.joined(separator: ".")))" : " (it would not resolve)"
        return "has a number with a leading zero, which the resolver reads as octal\(reading); write \(fix)"
    }

    /// The host and whether a `:port` followed, of `authority` (`[v6]:port`, `host:port`, `host`).
    private static func hostAndPort(of authority: Substring) -> (host: String, hasPort: Bool) {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return (String(authority[authority.index(after: authority.startIndex)..<close]), authority[close...].contains(":"))
        }
        guard let colon = authority.lastIndex(of: ":"), authority.firstIndex(of: ":") == colon else { return (String(authority), false) }
        return (String(authority[..<colon]), true)
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
