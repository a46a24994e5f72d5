/// Why a request head is malformed.
struct HTTPHeadParseError: Error {
    let reason: String
}

/// The request line and headers of a request, parsed from the head's text.
struct HTTPRequestHead {
    let method: String
    let target: String
    let version: String
    let headers: [HTTPHeader]

    static func parse(_ text: String) throws(HTTPHeadParseError) -> HTTPRequestHead {
        var lines = splitLines(text)
        guard !lines.isEmpty else { throw HTTPHeadParseError(reason: "empty request") }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3,
              !requestLine[0].isEmpty, requestLine[0].allSatisfy({ $0.isUppercase || $0 == "-" }),
              requestLine[1].first == "/" || requestLine[1] == "*",
              requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0" else {
            throw HTTPHeadParseError(reason: "malformed request line")
        }
        var headers: [HTTPHeader] = []
        for line in lines {
            headers.append(try parseHeader(line))
        }
        return HTTPRequestHead(method: String(requestLine[0]), target: String(requestLine[1]),
                               version: String(requestLine[2]), headers: headers)
    }

    /// Lines split on LF with any CR before it removed (on scalars: `\r\n` is one Character).
    private static func splitLines(_ text: String) -> [Substring] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { scalars in
            var line = String(String.UnicodeScalarView(scalars))
            if line.unicodeScalars.last == "\r" { line.unicodeScalars.removeLast() }
            return Substring(line)
        }
    }

    private static func parseHeader(_ line: Substring) throws(HTTPHeadParseError) -> HTTPHeader {
        guard let colon = line.firstIndex(of: ":") else { throw HTTPHeadParseError(reason: "header without colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" }) else {
            throw HTTPHeadParseError(reason: "malformed header name")
        }
        let value = String(line[line.index(after: colon)...]).trimmingSpaces
        return HTTPHeader(String(name), value)
    }

    func request(body: [UInt8]) -> HTTPRequest {
        HTTPRequest(method: method, target: target, version: version, headers: headers, body: body)
    }
}
