import CCurl

/// The proxy environment (`http_proxy`, `https_proxy`, `all_proxy`, `no_proxy` and
/// their upper-case forms) read once, when the client is set up, and handed to
/// libcurl as explicit options (CURLOPT_PROXY, CURLOPT_NOPROXY) on each transfer:
/// without them libcurl reads the environment again on every transfer (five
/// `getenv` calls, their copies and frees: ~2.5 k instructions a PATCH, callgrind).
/// The choice is libcurl's own (url.c `detect_proxy`, 7.88): for `https` the first
/// set of `https_proxy`, `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY`; for `http` the first
/// of `http_proxy`, `all_proxy`, `ALL_PROXY` (never `HTTP_PROXY`, which a CGI
/// environment lets a web client set); `no_proxy` else `NO_PROXY` for the hosts
/// not proxied. A variable set to the empty string counts as unset (libcurl's
/// `curl_getenv` returns none for it). An empty proxy means none. URLs of other schemes are left to libcurl as before.
public struct ProxySettings: Sendable, Equatable {
    /// The proxy for `http://` URLs, "" for none.
    public var httpProxy: String
    /// The proxy for `https://` URLs, "" for none.
    public var httpsProxy: String
    /// The hosts reached without a proxy (libcurl's `no_proxy` syntax), "" for none.
    public var noProxy: String

    /// The settings the variables `lookup` returns would give libcurl (nil: unset).
    public init(environment: (String) -> String?) {
        func lookup(_ name: String) -> String? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
        let anyScheme = lookup("all_proxy") ?? lookup("ALL_PROXY")
        httpProxy = lookup("http_proxy") ?? anyScheme ?? ""
        httpsProxy = lookup("https_proxy") ?? lookup("HTTPS_PROXY") ?? anyScheme ?? ""
        noProxy = lookup("no_proxy") ?? lookup("NO_PROXY") ?? ""
    }

    /// The process's proxy environment, read now (through `curl_getenv`, as libcurl reads it).
    public static func fromProcessEnvironment() -> ProxySettings {
        ProxySettings { name in
            guard let value = curl_getenv(name) else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
    }

    /// The scheme whose proxy `url` takes: `http` or `https` (any case, before
    /// `://`), else nil (libcurl then reads the environment itself, as before).
    static func scheme(of url: String) -> ProxyScheme? {
        var bytes = url.utf8.makeIterator()
        func next() -> UInt8? { bytes.next().map(ResponseHeadLine.lowercased) }
        guard next() == UInt8(ascii: "h"), next() == UInt8(ascii: "t"), next() == UInt8(ascii: "t"),
              next() == UInt8(ascii: "p") else { return nil }
        var byte = next()
        var scheme = ProxyScheme.http
        if byte == UInt8(ascii: "s") {
            scheme = .https
            byte = next()
        }
        guard byte == UInt8(ascii: ":"), next() == UInt8(ascii: "/"), next() == UInt8(ascii: "/") else { return nil }
        return scheme
    }

    /// The proxy for URLs of `scheme`.
    func proxy(for scheme: ProxyScheme) -> String {
        scheme == .http ? httpProxy : httpsProxy
    }

    /// Whether every URL of `scheme` goes through a proxy (which then looks the origin up).
    func isProxied(_ scheme: ProxyScheme?) -> Bool {
        guard let scheme else { return false }
        return !proxy(for: scheme).isEmpty && noProxy.isEmpty
    }
}

/// The two URL schemes whose proxy `ProxySettings` chooses.
enum ProxyScheme: Equatable {
    case http, https
}
