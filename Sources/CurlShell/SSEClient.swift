import BridgeCore
import CCurl
import ShellSupport

/// Keeps Aivi's event stream open on a `CurlMulti` (the daemon's one loop, or a loop
/// of its own): reconnects with backoff and jitter (honouring `retry:`), sends
/// `Last-Event-ID`, treats 45 s of silence as a dead connection (a deadline of the
/// loop, no polling), never hot-loops on a refusal. Events go to `handler` on the
/// loop's thread: it must be quick; none after `stop()`.
///
/// One mode: loop thread only (no lock). Started on a multi of its own (`start()`:
/// tests and tools), `stop()` hands the stop to that loop and waits for its thread.
public final class SSEClient: LoopSource, @unchecked Sendable {
    /// Where the stream is; loop thread only.
    enum Phase {
        case idle
        case streaming(SSEConnection, CurlTransfer)
        /// The host is being looked up off the loop (lookup `number`), given up at `untilMs`.
        case resolving(number: Int, untilMs: Int64)
        case waiting(untilMs: Int64)
        case stopped
    }

    public let settings: SSEClientSettings
    private let handler: @Sendable (SSEClientEvent) -> Void
    /// `start()`'s multi handle on a thread of its own (set by `start()`, before the
    /// client is shared), nil on the caller's.
    private var ownMulti: CurlMulti?
    /// Loop thread only, as everything below.
    private var multi: CurlMulti?
    private var isStopped = false
    /// The id sent as `Last-Event-ID` on the next reconnect (from another thread
    /// than the loop's: once `stop()` has returned).
    public private(set) var lastEventId: String?
    private var phase = Phase.idle
    private var reconnects: SSEReconnectSchedule
    /// The stream URL's parsed form, for its host and port (the name looked up).
    private let parsedURLs = ParsedURLs(capacity: 1)
    private var lookupNumber = 0

    public init(settings: SSEClientSettings, handler: @escaping @Sendable (SSEClientEvent) -> Void) {
        self.settings = settings
        reconnects = SSEReconnectSchedule(settings: settings)
        self.handler = handler
        CurlLibrary.initializeOnce()
    }

    /// Connects on a loop and thread of its own (tests, tools).
    public func start() throws(CurlError) {
        guard ownMulti == nil else { return }
        let multi = try CurlMulti.onOwnThread()
        ownMulti = multi
        start(on: multi)
    }

    /// Connects on `multi`'s loop (at once when called on its thread, else at its next turn).
    public func start(on multi: CurlMulti) {
        multi.onLoop { [self] in
            guard self.multi == nil, !isStopped else { return }
            self.multi = multi
            multi.loop.add(self)
        }
    }

    /// Closes the stream: no event is delivered after this returns. On the caller's
    /// multi, call it on the loop's thread (the daemon): the connection closes at
    /// once. On its own, the stop is handed to that loop, whose thread then ends.
    public func stop() {
        guard let ownMulti else { return stopOnLoop() }
        ownMulti.onLoop { [self] in stopOnLoop() }
        ownMulti.close()
    }

    private func stopOnLoop() {
        isStopped = true
        guard let multi else { return }
        if case .streaming(_, let transfer) = phase { multi.remove(transfer) }
        phase = .stopped
        multi.loop.remove(self)
    }

    /// Hands `event` to the owner unless stopped (loop thread).
    private func deliver(_ event: SSEClientEvent) {
        if !isStopped { handler(event) }
    }

    // MARK: LoopSource

    public func loopWants(nowMs: Int64) -> LoopWants {
        switch phase {
        case .idle: return LoopWants(deadlineMs: nowMs)
        case .streaming(let connection, _): return LoopWants(deadlineMs: connection.deadAtMs + 1)
        case .waiting(let untilMs), .resolving(_, let untilMs): return LoopWants(deadlineMs: untilMs)
        case .stopped: return LoopWants()
        }
    }

    public func loopService(ready: [LoopReadiness], nowMs: Int64) {
        switch phase {
        case .idle:
            connect()
        case .waiting(let untilMs):
            if nowMs >= untilMs { connect() }
        case .resolving(_, let untilMs):
            guard nowMs >= untilMs else { return }
            let reason = "looking the host up took more than \(settings.connectTimeoutMs) ms"
            reconnectLater(SSEConnectionOutcome(notOpened: reason))
        case .streaming(let connection, let transfer):
            guard nowMs > connection.deadAtMs else { return }
            connection.isDead = true
            multi?.remove(transfer)
            ended(connection, code: CURLE_OPERATION_TIMEDOUT)
        case .stopped:
            return
        }
    }

    /// Opens the stream once the host's addresses are known (`resolveLines`, or kept
    /// by the resolver), else looks the host up off the loop first.
    private func connect(resolveLines known: [String]? = nil) {
        guard let multi, !isStopped else { return }
        var resolveLines: [String] = []
        if let url = parsedURLs.parsed(for: settings.url) {
            let proxied = settings.proxy.isProxied(url.proxyScheme)
            guard let lines = known ?? url.endpoint.resolveLines(resolver: settings.resolver, throughProxy: proxied) else {
                return lookUp(url.endpoint, multi: multi)
            }
            resolveLines = lines
        }
        let parser = SSEParser(maxEventBytes: settings.maxEventBytes, lastEventId: lastEventId)
        let connection = SSEConnection(
            parser: parser, deadConnectionTimeoutMs: settings.deadConnectionTimeoutMs, clock: settings.clock,
            recordLastEventId: { [weak self] id in self?.lastEventId = id },
            handler: { [weak self] event in self?.deliver(event) })
        do {
            let easy = try CurlEasy()
            try configure(easy, connection)
            if !resolveLines.isEmpty { try easy.setResolve(resolveLines) }
            let transfer = CurlTransfer(easy: easy) { [self] code in ended(connection, code: code) }
            phase = .streaming(connection, transfer)
            try multi.add(transfer)
        } catch {
            reconnectLater(SSEConnectionOutcome(notOpened: "\(error)"))
        }
    }

    /// Looks `endpoint`'s host up on the resolver's thread; the answer comes back on the loop.
    private func lookUp(_ endpoint: CurlEndpoint, multi: CurlMulti) {
        lookupNumber &+= 1
        let number = lookupNumber
        phase = .resolving(number: number, untilMs: settings.clock.monotonicMs() + Int64(max(0, settings.connectTimeoutMs)))
        settings.resolver.resolve(endpoint.host) { [weak self] lookup in
            let client = self
            _ = multi.onLoop { client?.resolved(lookup, endpoint, number: number) }
        }
    }

    private func resolved(_ lookup: NameLookup, _ endpoint: CurlEndpoint, number: Int) {
        guard case .resolving(let waiting, _) = phase, waiting == number else { return }
        switch lookup {
        case .addresses(let addresses): connect(resolveLines: [endpoint.resolveLine(addresses)])
        case .failure(let reason): reconnectLater(SSEConnectionOutcome(notOpened: reason))
        }
    }

    /// The connection ended (closed, refused, failed or found dead).
    private func ended(_ connection: SSEConnection, code: CURLcode) {
        reconnectLater(SSEConnectionOutcome(ended: connection, code: code, nowMs: settings.clock.monotonicMs()))
    }

    private func reconnectLater(_ outcome: SSEConnectionOutcome) {
        guard !isStopped else {
            phase = .stopped
            return
        }
        deliver(.disconnected(reason: outcome.reason, refusedStatus: outcome.refusedStatus))
        let delayMs = reconnects.delayMs(after: outcome)
        phase = .waiting(untilMs: settings.clock.monotonicMs() + Int64(delayMs))
    }

    private func configure(_ easy: CurlEasy, _ connection: SSEConnection) throws(CurlError) {
        try easy.set(CURLOPT_URL, settings.url)
        try easy.setProxy(settings.proxy, forURL: settings.url)
        try easy.set(CURLOPT_HTTPGET, 1)
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_TCP_NODELAY, 1)
        try easy.set(CURLOPT_TCP_KEEPALIVE, 1)
        // Behind HTTPS_PROXY, the proxy's "200 Connection established" head is
        // not the stream's: keep it out of the header callback.
        try easy.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMs)
        if let caFile = settings.caFile { try easy.set(CURLOPT_CAINFO, caFile) }
        var headers = settings.headers.map { "\($0.name): \($0.value)" }
        headers += ["Accept: text/event-stream", "Cache-Control: no-cache"]
        if let lastEventId = connection.parser.lastEventId { headers.append("Last-Event-ID: \(lastEventId)") }
        try easy.setHeaders(headers)
        try connection.attach(to: easy)
    }
}
