import ShellSupport
/// One HTTP request for `HTTPClient`.
public struct HTTPClientRequest: Sendable {
    public var method: String
    public var url: String
    /// Header lines as name and value (e.g. the `Authorization` token).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// What came back: status, headers, a bounded body; or why nothing did.
public enum HTTPClientResult: Sendable {
    case response(HTTPClientResponse)
    case failure(CurlError)
}

/// A response to an `HTTPClientRequest`.
public struct HTTPClientResponse: Sendable {
    public var status: Int
    /// The headers named in `HTTPClientSettings.keptResponseHeaders` that came, by
    /// their lower-case names (the others are not kept).
    public var headers: [String: String]
    /// The body, cut at `HTTPClientSettings.maxResponseBytes`.
    public var body: [UInt8]

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A kept header's value (`HTTPClientSettings.keptResponseHeaders`), by its name in any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// How `HTTPClient` connects.
public struct HTTPClientSettings: Sendable {
    public var connectTimeoutMs: Int = 5_000
    public var totalTimeoutMs: Int = 15_000
    /// A CA bundle to verify TLS with; nil means the system store.
    public var caFile: String?
    /// Requests waiting beyond this are refused at once.
    public var maxQueuedRequests: Int = 64
    public var maxResponseBytes: Int = 64 * 1024
    /// The response headers kept in `HTTPClientResponse.headers` (any case): the ones
    /// a caller reads. Each other header line is looked at as bytes and dropped.
    public var keptResponseHeaders: [String] = ["Date", "Retry-After"]
    /// The proxies, read from the environment when the settings are made (once, not per request).
    public var proxy = ProxySettings.fromProcessEnvironment()
    /// Looks the API host up off the loop (libcurl never resolves a name itself).
    public var resolver = NameResolver.shared

    public init() {}
}
