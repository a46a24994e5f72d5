/// Writes one HTTP/1.1 request as `HTTPClient` sends it on its connection: the
/// request line (the method, the URL's path and query), `Host`, the request's own
/// header lines, `Content-Length` (a request with a body, or any but a GET), a blank
/// line and the body. No `Expect: 100-continue` (the body follows the head at once),
/// no other header libcurl would have added. The header lines depend only on the
/// request's shape, so they are rendered once per shape (`headerLines`) and copied.
enum HTTPRequestWriter {
    /// The header lines `Name: value\r\n` of `headers`; nil when a name or value holds
    /// a CR, LF or NUL (it would end the line and start another: refused, never sent).
    static func headerLines(_ headers: [(name: String, value: String)]) -> [UInt8]? {
        var lines: [UInt8] = []
        for header in headers {
            guard isOneLine(header.name.utf8), isOneLine(header.value.utf8), !header.name.isEmpty else { return nil }
            lines.append(contentsOf: header.name.utf8)
            lines.append(contentsOf: ": ".utf8)
            lines.append(contentsOf: header.value.utf8)
            lines.append(contentsOf: crlf)
        }
        return lines
    }

    /// The request's bytes into `out` (emptied first, its storage kept).
    static func write(method: String, target: [UInt8], host: [UInt8], headerLines: [UInt8], body: [UInt8],
                      into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(method.utf8.count + target.count + host.count + headerLines.count + body.count + 64)
        out.append(contentsOf: method.utf8)
        out.append(0x20)
        out.append(contentsOf: target)
        out.append(contentsOf: " HTTP/1.1\r\nHost: ".utf8)
        out.append(contentsOf: host)
        out.append(contentsOf: crlf)
        out.append(contentsOf: headerLines)
        if method != "GET" || !body.isEmpty {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(body.count, to: &out)
            out.append(contentsOf: crlf)
        }
        out.append(contentsOf: crlf)
        out.append(contentsOf: body)
    }

    private static let crlf: [UInt8] = [0x0D, 0x0A]

    private static func isOneLine(_ bytes: String.UTF8View) -> Bool {
        !bytes.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    /// The decimal digits of `value` (at least 0), written in place (no array of digits).
    private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        let rest = max(0, value)
        var divisor = 1
        while rest / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(0x30 + rest / divisor % 10))
            divisor /= 10
        }
    }
}
