/// A complete response: status, headers and body. The server adds
/// `Content-Length` and `Connection` itself.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain` response.
    public static func text(_ status: Int, _ text: String, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status,
                     headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8")] + headers,
                     body: Array(text.utf8))
    }

    /// An `application/json` response from already serialized JSON text.
    public static func json(_ status: Int, _ jsonText: String, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status,
                     headers: [HTTPHeader("Content-Type", "application/json")] + headers,
                     body: Array(jsonText.utf8))
    }
}

/// The reason phrases of the statuses this server uses.
enum HTTPReasonPhrase {
    static func phrase(for status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 409: return "Conflict"
        case 413: return "Content Too Large"
        case 421: return "Misdirected Request"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        default: return "Status \(status)"
        }
    }
}
