/// A parsed HTTP/1.1 request with its whole body.
public struct HTTPRequest: Sendable {
    /// The method as sent, e.g. `GET`.
    public var method: String
    /// The request target as sent, e.g. `/widget/a?x=1`.
    public var target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(method: String, target: String, version: String = "HTTP/1.1",
                headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The target without its query.
    public var path: String {
        String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
    }

    /// The path split on `/`, without empty parts: `/widget/a` gives `["widget", "a"]`.
    public var pathSegments: [String] {
        path.split(separator: "/").map(String.init)
    }

    /// The value of query parameter `name` (not percent-decoded), or nil.
    public func queryValue(_ name: String) -> String? {
        let parts = target.split(separator: "?", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        for pair in parts[1].split(separator: "&") {
            let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if keyValue[0] == name { return keyValue.count == 2 ? String(keyValue[1]) : "" }
        }
        return nil
    }

    /// The first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? { headers.value(named: name) }

    /// The body decoded as UTF-8 (invalid bytes replaced).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Whether the connection stays open after this request's answer.
    var wantsKeepAlive: Bool {
        let connection = header("Connection")?.lowercased() ?? ""
        if version == "HTTP/1.0" { return connection.contains("keep-alive") }
        return !connection.contains("close")
    }
}
