/// Renders response heads.
enum HTTPResponseWriter {
    /// Status line and headers of a complete response, with Content-Length and Connection.
    static func head(of response: HTTPResponse, keepAlive: Bool) -> [UInt8] {
        var text = statusLine(response.status)
        for header in response.headers { text += "\(header.name): \(header.value)\r\n" }
        text += "Content-Length: \(response.body.count)\r\n"
        text += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        return Array(text.utf8)
    }

    /// Status line and headers of a chunked, streamed response that ends the connection.
    static func streamHead(status: Int, headers: [HTTPHeader]) -> [UInt8] {
        var text = statusLine(status)
        for header in headers { text += "\(header.name): \(header.value)\r\n" }
        text += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        return Array(text.utf8)
    }

    private static func statusLine(_ status: Int) -> String {
        "HTTP/1.1 \(status) \(HTTPReasonPhrase.phrase(for: status))\r\n"
    }
}
