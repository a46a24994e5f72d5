import BridgeCore
import ShellSupport

/// The host and port a libcurl connection goes to, and how it is looked up off the
/// loop (issue 38 item 6): a literal address needs no lookup; a name is looked up by
/// `NameResolver` and handed to libcurl as a CURLOPT_RESOLVE line, so libcurl's own
/// resolver (joined inside `curl_multi_socket_action` when a lookup is slow) never runs.
struct CurlEndpoint: Equatable {
    /// As libcurl parsed it (an IPv6 literal in brackets).
    var host: String
    var port: String

    /// Whether connecting needs a lookup: not for a literal address.
    var needsLookup: Bool {
        !host.hasPrefix("[") && !HostAddress.isLiteral(host)
    }

    /// The CURLOPT_RESOLVE line for `addresses` (IPv6 ones in brackets).
    func resolveLine(_ addresses: [String]) -> String {
        host + ":" + port + ":" + addresses.map { $0.contains(":") ? "[" + $0 + "]" : $0 }.joined(separator: ",")
    }

    /// The lines to hand libcurl now: none for a literal or when a proxy connects (the
    /// proxy looks the origin up), the kept answer's line, or nil when a lookup must run first.
    func resolveLines(resolver: NameResolver, throughProxy: Bool) -> [String]? {
        guard needsLookup, !throughProxy else { return [] }
        return resolver.cached(host).map { [resolveLine($0)] }
    }
}
