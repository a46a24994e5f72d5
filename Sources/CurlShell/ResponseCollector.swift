import CCurl

/// Collects a response's headers and body from libcurl's callbacks.
final class ResponseCollector {
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    let maxBodyBytes: Int

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// Makes `easy`'s callbacks land here; the caller keeps this collector alive
    /// for as long as the transfer runs.
    func attach(to easy: CurlEasy) throws(CurlError) {
        try easy.setReceiver(self, body: Self.writeBody, header: Self.writeHeader)
    }

    /// A header line ("Name: value\r\n"); a new status line starts over
    /// (redirects, 100 Continue).
    func addHeaderLine(_ line: String) {
        if line.hasPrefix("HTTP/") { headers = [:]; return }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t\r\n")
        headers[name] = value
    }

    func addBody(_ bytes: UnsafeRawBufferPointer) {
        let room = max(0, maxBodyBytes - body.count)
        body.append(contentsOf: bytes.prefix(room))
    }

    static let writeBody: sb_curl_data_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
        collector.addBody(UnsafeRawBufferPointer(start: data, count: size * count))
        return size * count
    }

    static let writeHeader: sb_curl_data_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
        let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
        collector.addHeaderLine(String(decoding: bytes, as: UTF8.self))
        return size * count
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var text = self
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}
