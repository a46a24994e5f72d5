/// Collects the status, headers and (bounded) body of one response as libcurl hands
/// them over. A new status line (after a 1xx or a redirect) starts over.
final class ResponseCollector {
    private(set) var statusCode = 0
    private(set) var headers: [HTTPHeader] = []
    private(set) var body: [UInt8] = []
    private(set) var isBodyTooLarge = false
    /// Set when an empty line ends the header block of a final (non-1xx) response.
    private(set) var areHeadersComplete = false
    private let maxBodyBytes: Int
    private let maxHeaderCount = 100

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    func takeHeaderLine(_ line: String) {
        if line.hasPrefix("HTTP/") {
            statusCode = Self.statusCode(ofStatusLine: line)
            headers = []
            areHeadersComplete = false
        } else if line.isEmpty {
            areHeadersComplete = statusCode >= 200
        } else if let colon = line.firstIndex(of: ":"), headers.count < maxHeaderCount {
            let name = String(line[..<colon])
            let value = String(line[line.index(after: colon)...]).trimmingSpaces
            headers.append(HTTPHeader(name: name, value: value))
        }
    }

    /// Appends body bytes; false (abort) once the body would exceed the limit.
    func takeBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= maxBodyBytes else {
            isBodyTooLarge = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    var response: HTTPResponse {
        HTTPResponse(statusCode: statusCode, headers: headers, body: body)
    }

    private static func statusCode(ofStatusLine line: String) -> Int {
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2 else { return 0 }
        return Int(parts[1]) ?? 0
    }
}
