/// The Aivi API's base URL and event-stream path, parsed the way `run` uses
/// them: the base URL gets `/widget/SLUG` and the events path appended, so it
/// must be `http(s)://HOST[:PORT][/PATH]` with nothing libcurl would refuse
/// (spaces, controls, a port out of range, an unclosed `[`) and nothing that
/// would move the appended path (a `?query` or `#fragment`).
public enum APIURLRules {
    /// The parts of a base URL that `check` and `run` rely on.
    public struct BaseURL: Equatable, Sendable {
        public var scheme: String
        /// As written: a name, a dotted quad or a bracketed IPv6 address.
        public var host: String
        public var port: Int?
        /// Empty or starting with `/`, without a trailing `/`.
        public var path: String
    }

    /// The base URL, or why `run` could not use it.
    public static func parseBase(_ text: String) -> Result<BaseURL, Problem> {
        guard let schemeEnd = text.firstRange(of: "://") else { return .failure(Problem("must be a URL starting with https://")) }
        let scheme = String(text[..<schemeEnd.lowerBound])
        guard scheme == "https" || scheme == "http" else { return .failure(Problem("must be a URL starting with https://")) }
        if let bad = text.unicodeScalars.first(where: { !isVisibleASCII($0) }) {
            return .failure(Problem("must not contain \(describe(bad)); write the URL as plain ASCII (percent-encode the rest)"))
        }
        let rest = text[schemeEnd.upperBound...]
        if rest.contains("?") || rest.contains("#") {
            return .failure(Problem("must not have a '?query' or '#fragment': the bridge appends /widget/SLUG and the events path to it, "
                + "which would land inside them"))
        }
        let authority = rest.prefix { $0 != "/" }
        let path = String(rest.dropFirst(authority.count))
        guard let (host, port) = splitAuthority(authority) else {
            return .failure(Problem("must be http(s)://HOST[:PORT][/PATH], as in https://api.example.com or http://[::1]:8080"))
        }
        if let problem = hostProblem(host) { return .failure(Problem(problem)) }
        if let port, !(1...65_535).contains(port) { return .failure(Problem("has port \(port): a port must be 1 to 65535")) }
        if let problem = pathProblem(path) { return .failure(Problem(problem)) }
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return .success(BaseURL(scheme: scheme, host: host, port: port, path: trimmed))
    }

    /// Why `events_path` cannot be appended to the base URL, or nil.
    public static func eventsPathProblem(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return "must start with '/'" }
        if let bad = path.unicodeScalars.first(where: { !isVisibleASCII($0) }) {
            return "must not contain \(describe(bad)); percent-encode it"
        }
        if path.contains("#") { return "must not contain '#': a fragment is never sent to the server" }
        let pathPart = path.prefix { $0 != "?" }
        return pathProblem(String(pathPart))
    }

    /// A reason, worded to follow "'api' in 'aivi' ".
    public struct Problem: Error, Equatable, Sendable {
        public let text: String
        init(_ text: String) { self.text = text }
    }

    /// `host[:port]` or `[v6][:port]`; nil when malformed (empty host, unclosed
    /// bracket, a port that is not digits).
    private static func splitAuthority(_ authority: Substring) -> (String, Int?)? {
        var host = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { return nil }
        guard let portText else { return (String(host), nil) }
        guard !portText.isEmpty, portText.count <= 6, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText) else {
            return nil
        }
        return (String(host), port)
    }

    /// A host name, an IPv4 address or `[IPv6]`, as `HostAddress` (the one
    /// address parser) reads them.
    static func hostProblem(_ host: String) -> String? {
        if host.hasPrefix("[") {
            let inside = String(host.dropFirst().dropLast())
            guard host.hasSuffix("]"), case .success(.ipv6) = HostAddress.parse(inside) else {
                return "has '\(host)', which is not an IPv6 address in brackets (e.g. [::1])"
            }
            return nil
        }
        if case .failure(let refusal) = HostAddress.parse(host) { return "has host '\(host)': it \(refusal.message)" }
        return nil
    }

    /// Path characters libcurl sends as written: RFC 3986 `pchar`s, `/`, and `%XX`.
    private static func pathProblem(_ path: String) -> String? {
        let scalars = Array(path.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "%" {
                guard index + 2 < scalars.count, scalars[index + 1].properties.isASCIIHexDigit, scalars[index + 2].properties.isASCIIHexDigit else {
                    return "has a '%' that is not followed by two hex digits (write %25 for a percent sign)"
                }
                index += 3
                continue
            }
            let isUnreserved = scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) || "-._~".unicodeScalars.contains(scalar)
            guard isUnreserved || "!$&'()*+,;=:@/".unicodeScalars.contains(scalar) else {
                return "has \(describe(scalar)) in its path; percent-encode it"
            }
            index += 1
        }
        return nil
    }

    private static func isVisibleASCII(_ scalar: Unicode.Scalar) -> Bool { scalar.value > 0x20 && scalar.value < 0x7F }

    /// A character named for a message, never echoed raw.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        if scalar == " " { return "a space" }
        if scalar.value < 0x20 || scalar.value == 0x7F { return "a control character (U+\(hex(scalar.value)))" }
        if !scalar.isASCII { return "a non-ASCII character (U+\(hex(scalar.value)))" }
        return "'\(scalar)'"
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
