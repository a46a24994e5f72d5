import BridgeCore
import CCurl
import ShellSupport

/// Keeps Aivi's event stream open on its own thread: reconnects with backoff
/// and jitter (honouring `retry:`), sends `Last-Event-ID`, treats 45 s of
/// silence as a dead connection, never hot-loops on a refusal.
public final class SSEClient: Sendable {
    struct Control {
        var isStopped = false
        var lastEventId: String?
    }

    public let settings: SSEClientSettings
    private let handler: @Sendable (SSEClientEvent) -> Void
    private let control = ConditionLock(Control())
    private let worker: ConditionLock<ShellThread?> = ConditionLock(nil)

    public init(settings: SSEClientSettings, handler: @escaping @Sendable (SSEClientEvent) -> Void) {
        self.settings = settings
        self.handler = handler
        CurlLibrary.initializeOnce()
    }

    /// Starts the stream's thread.
    public func start() throws(ShellThreadError) {
        let thread = try ShellThread { [self] in run() }
        worker.withLock { $0 = thread }
    }

    /// Closes the stream and waits for its thread (returns within about a second).
    public func stop() {
        control.withLock { $0.isStopped = true }
        worker.withLock { thread in
            thread?.join()
            thread = nil
        }
    }

    /// The id sent as `Last-Event-ID` on the next reconnect.
    public var lastEventId: String? { control.withLock { $0.lastEventId } }

    private var isStopped: Bool { control.withLock { $0.isStopped } }

    private func run() {
        var failures = 0
        var retryMs = settings.initialReconnectDelayMs
        var jitter = SplitMix64(seed: settings.jitterSeed)
        while !isStopped {
            let outcome = connectOnce()
            if let serverRetryMs = outcome.retryMs { retryMs = SSEReconnectPolicy.clampedRetryMs(serverRetryMs) }
            if isStopped { return }
            handler(.disconnected(reason: outcome.reason, refusedStatus: outcome.refusedStatus))
            failures = outcome.wasHealthy ? 0 : min(failures + 1, 64)
            if let status = outcome.refusedStatus, SSEReconnectPolicy.refusesToken(status) {
                failures = max(failures, SSEReconnectPolicy.tokenRefusalFailures)
            }
            let delayMs = SSEReconnectPolicy.delayMs(retryMs: retryMs, failures: failures, capMs: settings.maxReconnectDelayMs,
                                                     using: &jitter)
            control.wait(timeoutMs: delayMs, until: { $0.isStopped })
        }
    }

    struct Outcome {
        var reason: String
        var retryMs: Int?
        var wasHealthy: Bool
        var refusedStatus: Int? = nil
    }

    private func connectOnce() -> Outcome {
        let parser = SSEParser(maxEventBytes: settings.maxEventBytes, lastEventId: lastEventId)
        let connection = SSEConnection(
            parser: parser, deadConnectionTimeoutMs: settings.deadConnectionTimeoutMs,
            isStopRequested: { [control] in control.withLock { $0.isStopped } },
            recordLastEventId: { [control] id in control.withLock { $0.lastEventId = id } },
            handler: handler)
        let code: CURLcode
        do {
            let easy = try CurlEasy()
            try configure(easy, connection)
            code = withExtendedLifetime(connection) { easy.perform() }
        } catch {
            return Outcome(reason: "\(error)", retryMs: nil, wasHealthy: false)
        }
        let openMs = connection.openedAtMs.map { MonotonicClock.nowMs() - $0 } ?? 0
        let healthy = SSEReconnectPolicy.wasHealthy(
            opened: connection.isOpen, eventCount: connection.eventCount, openMs: openMs, died: connection.isDead)
        let refusedStatus = connection.refusal != nil && connection.status != 200 ? connection.status : nil
        return Outcome(reason: Self.reason(code, connection), retryMs: connection.retryMs, wasHealthy: healthy,
                       refusedStatus: refusedStatus)
    }

    private func configure(_ easy: CurlEasy, _ connection: SSEConnection) throws(CurlError) {
        let context = Unmanaged.passUnretained(connection).toOpaque()
        try easy.set(CURLOPT_URL, settings.url)
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
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
        try easy.set(CURLOPT_XFERINFODATA, pointer: context)
        try easy.set(CURLOPT_NOPROGRESS, 0)
        _ = sb_curl_setopt_write_function(easy.handle, SSEConnection.writeBody)
        _ = sb_curl_setopt_header_function(easy.handle, SSEConnection.writeHeader)
        _ = sb_curl_setopt_progress_function(easy.handle, SSEConnection.progress)
    }

    private static func reason(_ code: CURLcode, _ connection: SSEConnection) -> String {
        if let refusal = connection.refusal { return "stream refused: \(refusal)" }
        if connection.isDead { return "no byte for \(connection.deadConnectionTimeoutMs / 1000) s: connection dead" }
        if code == CURLE_OK { return "stream closed by the server" }
        return CurlError("event stream", code).description
    }
}
