import CCurl

/// Collects a response's body from libcurl's write callback (one response at a
/// time, `startOver` between two) and, once the transfer ended, the few headers its
/// reader asks for from libcurl's own store of the head (`CurlEasy.lastHeader`):
/// no header callback runs per header line (~3.4 k instructions a PATCH, callgrind).
final class ResponseCollector {
    /// The kept headers, by their lower-case name (`readHeaders`).
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    let maxBodyBytes: Int
    /// The names of the headers kept: lower case, and as the C string libcurl is asked with.
    let keptNames: [(name: String, cString: [CChar])]

    init(maxBodyBytes: Int, keptNames: [String]) {
        self.maxBodyBytes = maxBodyBytes
        self.keptNames = keptNames.map { name in (name.lowercased(), Array(name.lowercased().utf8CString)) }
    }

    /// A collector of `settings.maxResponseBytes` keeping `settings.keptResponseHeaders`.
    convenience init(_ settings: HTTPClientSettings) {
        self.init(maxBodyBytes: settings.maxResponseBytes, keptNames: settings.keptResponseHeaders)
    }

    /// Forgets the last response, for the next one.
    func startOver() {
        headers = [:]
        body = []
    }

    /// Makes `easy`'s body callback land here; the caller keeps this collector alive
    /// for as long as the transfer runs.
    func attach(to easy: CurlEasy) throws(CurlError) {
        try easy.setReceiver(self, body: Self.writeBody, header: nil)
    }

    /// Keeps the kept headers of the response `easy` just received: of its last head
    /// (a `100 Continue`'s are not the answer's), the last of each name.
    func readHeaders(of easy: CurlEasy) {
        for kept in keptNames {
            if let value = kept.cString.withUnsafeBufferPointer({ easy.lastHeader(named: $0) }) { headers[kept.name] = value }
        }
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
}
