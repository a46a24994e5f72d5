import BridgeCore

/// Which `Host` names the status server answers (issue 38 item 9, DNS
/// rebinding): the name its listener was configured with, loopback names
/// (`localhost` and names under it, RFC 6761) and literal addresses (an IPv4
/// literal, a bracketed IPv6 literal), each with an optional `:port`. A page on
/// any other name, even one whose DNS answer now points at this board, is
/// refused (421), so it cannot read lock and door states; so is a request
/// without a `Host` (HTTP/1.0 without one included).
struct StatusHostCheck: Sendable {
    /// The configured listen host, lowercased (`127.0.0.1`, `localhost`, `::1`).
    let listenHost: String
    let port: Int

    init(listenHost: String, port: Int) {
        self.listenHost = listenHost.lowercased()
        self.port = port
    }

    /// Whether a request whose `Host` header is `host` (nil: none) is answered.
    func allows(host: String?) -> Bool {
        guard let host, !host.isEmpty, host.utf8.count <= 300 else { return false }
        let (name, portText) = Self.split(host.lowercased())
        if let portText {
            guard (1...5).contains(portText.count), portText.allSatisfy({ ("0"..."9").contains($0) }) else { return false }
        }
        if name.hasPrefix("[") {
            guard name.hasSuffix("]"), name.count > 2 else { return false }
            return ListenAddress.parse(host: name.dropFirst().dropLast(), port: port) != nil
        }
        guard !name.contains(":"), !name.isEmpty else { return false }
        let bare = name.hasSuffix(".") ? name.dropLast() : name
        if bare == listenHost[...] || bare == "localhost" || bare.hasSuffix(".localhost") { return true }
        return ListenAddress.parse(host: bare, port: port) != nil
    }

    /// The name and the port text after its last `:` (outside brackets).
    private static func split(_ host: String) -> (name: Substring, port: Substring?) {
        let text = Substring(host)
        guard let colon = text.lastIndex(of: ":") else { return (text, nil) }
        if text.hasPrefix("[") {
            guard let close = text.lastIndex(of: "]") else { return (text, nil) }
            guard colon > close else { return (text, nil) }
            return (text[..<colon], text[text.index(after: colon)...])
        }
        // An unbracketed IPv6 literal has several colons: left whole (and refused).
        guard text.firstIndex(of: ":") == colon else { return (text, nil) }
        return (text[..<colon], text[text.index(after: colon)...])
    }
}
