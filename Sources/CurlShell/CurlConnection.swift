import CCurl

/// One connection `HTTPClient` writes its requests on and reads their answers from
/// itself: a libcurl CONNECT_ONLY transfer on the `CurlMulti` (libcurl resolves,
/// connects, does the TLS handshake and any proxy tunnel, then stops), kept on the
/// multi handle while the connection lives (removing it closes the connection). The
/// request and its answer then cost a `curl_easy_send` and a `curl_easy_recv`, not
/// a libcurl transfer (~63-77 k instructions a PATCH: BENCHMARKS.md, issue 23).
final class CurlConnection {
    /// Scheme, host and port (`ParsedURL.origin`): a request of another origin needs another connection.
    let origin: [UInt8]
    let transfer: CurlTransfer
    /// The connected socket, once libcurl is done connecting (`markConnected`).
    private(set) var socket: Int32?
    /// How many answers were read whole on it: a reused connection that fails
    /// before any byte of the next answer was closed by the server while idle.
    var answeredCount = 0

    /// A connection to `url`'s origin, made once `start` added it to `multi`;
    /// `connected` gets libcurl's result of the connect.
    init(easy: CurlEasy, to url: ParsedURL, connected: @escaping (CURLcode) -> Void) {
        origin = url.origin
        transfer = CurlTransfer(easy: easy, keepsConnection: true, finished: connected)
    }

    /// Sets `easy` up to connect to `url` only (any earlier options cleared): HTTP/1.1
    /// (ALPN would choose HTTP/2 over TLS), through a tunnel when a proxy is used
    /// (the bytes written are the origin's), the settings' timeouts and CA file.
    static func configure(_ easy: CurlEasy, for url: ParsedURL, _ settings: HTTPClientSettings) throws(CurlError) {
        easy.reset()
        try easy.set(CURLOPT_CONNECT_ONLY, 1)
        try easy.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        try easy.set(CURLOPT_HTTPPROXYTUNNEL, 1)
        try easy.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_TCP_NODELAY, 1)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMs)
        try easy.set(CURLOPT_TIMEOUT_MS, settings.totalTimeoutMs)
        if let caFile = settings.caFile { try easy.set(CURLOPT_CAINFO, caFile) }
        try easy.setURL(url, proxy: settings.proxy)
    }

    /// Starts connecting (loop thread only); `connected` may run before this returns.
    func start(on multi: CurlMulti) throws(CurlError) {
        try multi.add(transfer)
    }

    /// Reads the socket libcurl connected (after `connected` said CURLE_OK).
    func markConnected() throws(CurlError) {
        guard let active = transfer.easy.activeSocket else { throw CurlError("connect", message: "no socket after connecting") }
        socket = active
    }

    /// Closes the connection (loop thread only).
    func close(on multi: CurlMulti) {
        socket = nil
        multi.remove(transfer)
    }

    func send(_ bytes: UnsafeRawBufferPointer) throws(CurlError) -> Int {
        try transfer.easy.send(bytes)
    }

    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(CurlError) -> Int? {
        try transfer.easy.receive(into: buffer)
    }
}
