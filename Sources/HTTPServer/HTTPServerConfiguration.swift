/// How an `HTTPServer` listens and what it bounds.
public struct HTTPServerConfiguration: Sendable {
    /// `127.0.0.1` or `::1` (loopback only is the intended use; any literal IP works).
    public var host: String
    /// The port to bind; 0 picks a free one (see `HTTPServer.port`).
    public var port: Int
    /// The most bytes of request line plus headers; more gets 431.
    public var maxHeaderBytes: Int
    /// The most bytes of request body; more gets 413.
    public var maxBodyBytes: Int
    /// The most connections open at once; more get 503 and are closed.
    public var maxConnections: Int
    /// How long a connection may go without a byte from its client while it waits for
    /// one (idle keep-alive, slow client) before it closes.
    public var readTimeoutMs: Int
    /// How long an answer may wait, without a byte taken, for a client that does not read.
    public var writeTimeoutMs: Int
    /// The whole request head (and any idle wait before it) must arrive within
    /// this, however slowly its bytes trickle in; then the connection closes.
    public var headTimeoutMs: Int
    /// When every connection is taken, close the one that has waited longest for
    /// a request (idle or trickling a head) to admit the new one, instead of 503.
    public var evictsOldestIdleWhenFull: Bool
    /// The most bytes a streamed answer may have waiting for a slow client; past it
    /// the client is dropped, not buffered without limit.
    public var maxStreamBufferedBytes: Int
    /// The most connections with bytes ready served in one pass of the loop; the
    /// others wait for the next (round robin), so a flood of clients costs the
    /// loop a bounded slice between two looks at its other sources (the daemon's
    /// presses come first).
    public var maxReadyConnectionsPerPass: Int
    /// Requests read (and connections accepted) at most this many a second, with a
    /// burst of `requestBurst`; nil: no pace. Past it the server waits, not reading.
    public var maxRequestsPerSecond: Int?
    public var requestBurst: Int

    public init(host: String = "127.0.0.1", port: Int = 0, maxHeaderBytes: Int = 16 * 1024,
                maxBodyBytes: Int = 256 * 1024, maxConnections: Int = 64,
                readTimeoutMs: Int = 15_000, writeTimeoutMs: Int = 5_000,
                headTimeoutMs: Int = 30_000, evictsOldestIdleWhenFull: Bool = false,
                maxStreamBufferedBytes: Int = 1024 * 1024, maxReadyConnectionsPerPass: Int = Int.max,
                maxRequestsPerSecond: Int? = nil, requestBurst: Int = 1) {
        self.host = host
        self.port = port
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxConnections = maxConnections
        self.readTimeoutMs = readTimeoutMs
        self.writeTimeoutMs = writeTimeoutMs
        self.headTimeoutMs = headTimeoutMs
        self.evictsOldestIdleWhenFull = evictsOldestIdleWhenFull
        self.maxStreamBufferedBytes = maxStreamBufferedBytes
        self.maxReadyConnectionsPerPass = max(1, maxReadyConnectionsPerPass)
        self.maxRequestsPerSecond = maxRequestsPerSecond
        self.requestBurst = requestBurst
    }
}
