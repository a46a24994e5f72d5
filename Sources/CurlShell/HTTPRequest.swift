/// One HTTP request for `HTTPClient`.
public struct HTTPRequest: Sendable {
    /// The method, e.g. `PATCH` or `GET`.
    public var method: String
    public var url: String
    /// Sent as given; put the token here (it is never logged or put in error text).
    public var headers: [HTTPHeader]
    /// Sent for every method except GET and HEAD (an empty body is sent as length 0).
    public var body: [UInt8]

    public init(method: String, url: String, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP response from `HTTPClient`.
public struct HTTPResponse: Sendable, Equatable {
    public let statusCode: Int
    /// Headers of the final response (earlier 1xx responses are dropped).
    public let headers: [HTTPHeader]
    public let body: [UInt8]

    public init(statusCode: Int, headers: [HTTPHeader], body: [UInt8]) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The `Date` header: the server's clock.
    public var date: String? { headers.value(of: "Date") }

    /// `Retry-After` in seconds when given as delta-seconds (the HTTP-date form is
    /// left to the owner, which has `date` to compare it with).
    public var retryAfterSeconds: Int? {
        guard let value = headers.value(of: "Retry-After")?.trimmingSpaces, !value.isEmpty,
              value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(value)
    }
}

extension String {
    /// Without leading and trailing spaces, tabs, CR and LF.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
