/// A response read off the wire by the test clients.
struct TestResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// How many bytes of the stream this response took.
    var wireLength: Int

    var bodyText: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first(where: { $0.name.lowercased() == name.lowercased() })?.value
    }

    /// The head of `bytes` (status and headers) and where the body starts, if complete.
    static func parseHead(_ bytes: [UInt8]) -> (status: Int, headers: [(name: String, value: String)], bodyStart: Int)? {
        guard let end = indexOf([13, 10, 13, 10], in: bytes) else { return nil }
        let text = String(decoding: bytes[0..<end], as: UTF8.self)
        let lines = text.unicodeScalars.split(separator: "\n").map { scalars in
            String(String.UnicodeScalarView(scalars.filter { $0 != "\r" }))
        }
        guard let statusLine = lines.first else { return nil }
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].drop(while: { $0 == " " })
            return (String(line[..<colon]), String(value))
        }
        return (status, headers, end + 4)
    }

    /// A complete Content-Length framed response at the start of `bytes`, or nil.
    static func parseComplete(_ bytes: [UInt8]) -> TestResponse? {
        guard let head = parseHead(bytes) else { return nil }
        if head.status == 100 {
            guard let rest = parseComplete(Array(bytes[head.bodyStart...])) else { return nil }
            return TestResponse(status: rest.status, headers: rest.headers, body: rest.body,
                                wireLength: rest.wireLength + head.bodyStart)
        }
        let length = head.headers.first(where: { $0.name.lowercased() == "content-length" }).flatMap { Int($0.value) } ?? 0
        guard bytes.count >= head.bodyStart + length else { return nil }
        return TestResponse(status: head.status, headers: head.headers,
                            body: Array(bytes[head.bodyStart..<(head.bodyStart + length)]),
                            wireLength: head.bodyStart + length)
    }

    static func indexOf(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }

    /// The payload of a chunked body (all complete chunks so far).
    static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var payload: [UInt8] = []
        var index = 0
        while let lineEnd = indexOf([13, 10], in: Array(bytes[index...])) {
            let sizeText = String(decoding: bytes[index..<(index + lineEnd)], as: UTF8.self)
            guard let size = Int(sizeText, radix: 16), size > 0 else { break }
            let start = index + lineEnd + 2
            guard bytes.count >= start + size + 2 else { break }
            payload += bytes[start..<(start + size)]
            index = start + size + 2
        }
        return payload
    }
}
