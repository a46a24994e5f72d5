import CCurl

/// Collects a response's body and the few headers its reader asks for from
/// libcurl's callbacks (one response at a time, `startOver` between two). Header lines are read as bytes (`ResponseHeadLine`): only
/// a kept header's value becomes a `String`.
final class ResponseCollector {
    /// The kept headers, by their lower-case name.
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    let maxBodyBytes: Int
    private let keptNames: [KeptName]

    /// A header name kept: lower case, as a `String` (the key) and as bytes.
    struct KeptName {
        let name: String
        let bytes: [UInt8]

        init(_ name: String) {
            self.name = name.lowercased()
            bytes = Array(self.name.utf8)
        }
    }

    init(maxBodyBytes: Int, keptNames: [KeptName]) {
        self.maxBodyBytes = maxBodyBytes
        self.keptNames = keptNames
    }

    /// A collector of `settings.maxResponseBytes` keeping `settings.keptResponseHeaders`.
    convenience init(_ settings: HTTPClientSettings) {
        self.init(maxBodyBytes: settings.maxResponseBytes, keptNames: settings.keptResponseHeaders.map(KeptName.init))
    }

    /// Forgets the last response, for the next one.
    func startOver() {
        headers = [:]
        body = []
    }

    /// Makes `easy`'s callbacks land here; the caller keeps this collector alive
    /// for as long as the transfer runs.
    func attach(to easy: CurlEasy) throws(CurlError) {
        try easy.setReceiver(self, body: Self.writeBody, header: Self.writeHeader)
    }

    /// A header line ("Name: value\r\n"); a new status line starts over
    /// (redirects, 100 Continue).
    func addHeaderLine(_ line: UnsafeRawBufferPointer) {
        switch ResponseHeadLine(line) {
        case .status: headers = [:]
        case .field(let name, let value):
            guard let kept = keptNames.first(where: { ResponseHeadLine.name(name, is: $0.bytes) }) else { return }
            headers[kept.name] = String(decoding: value, as: UTF8.self)
        case .end, .other: return
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

    static let writeHeader: sb_curl_data_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
        collector.addHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
        return size * count
    }
}
