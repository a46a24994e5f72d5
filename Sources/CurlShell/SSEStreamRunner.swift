import CCurl

/// The SSE client's thread: one connection attempt after another, with backoff.
final class SSEStreamRunner: @unchecked Sendable {
    /// How one connection attempt ended.
    struct AttemptOutcome {
        var wasAccepted = false
        var reason: String?
    }

    private static let minRetryDelayMs = 10
    private let easy: CurlEasy
    private let settings: SSEClientSettings
    private let handler: @Sendable (SSEClientEvent) -> Void
    private let state: ConditionLock<SSEClient.State>
    private var parser: SSEParser
    private var backoff: ReconnectBackoff
    private var randomNumbers = SystemRandomNumberGenerator()

    init(easy: CurlEasy, settings: SSEClientSettings, handler: @escaping @Sendable (SSEClientEvent) -> Void, state: ConditionLock<SSEClient.State>) {
        self.easy = easy
        self.settings = settings
        self.handler = handler
        self.state = state
        self.parser = SSEParser(maxEventBytes: settings.maxEventBytes, lastEventId: settings.initialLastEventId)
        self.backoff = ReconnectBackoff(baseDelayMs: settings.initialRetryDelayMs, maxDelayMs: settings.maxRetryDelayMs)
    }

    func run() {
        while !isStopping {
            let outcome = runAttempt()
            if isStopping { return }
            if outcome.wasAccepted { backoff.recordSuccess() }
            let delayMs = backoff.nextDelayMs(using: &randomNumbers)
            handler(.disconnected(reason: outcome.reason ?? "stream ended", retryDelayMs: delayMs))
            if state.wait(timeoutMs: delayMs, until: { $0.isStopping }) { return }
        }
    }

    private var isStopping: Bool {
        state.withLock { $0.isStopping }
    }

    private func runAttempt() -> AttemptOutcome {
        parser.reset()
        let collector = ResponseCollector(maxBodyBytes: 0)
        var outcome = AttemptOutcome()
        var lastByteAt = ContinuousClock.now
        let deadAfter = Duration.milliseconds(settings.deadConnectionTimeoutMs)
        let context = CurlTransferContext()
        context.onHeaderLine = { [self] line in
            lastByteAt = .now
            collector.takeHeaderLine(line)
            if collector.areHeadersComplete, !outcome.wasAccepted, outcome.reason == nil {
                outcome = evaluate(collector)
            }
        }
        context.onBody = { [self] bytes in
            guard outcome.wasAccepted else { return false }
            lastByteAt = .now
            handle(parser.feed(bytes))
            let lastEventId = parser.lastEventId
            state.withLock { $0.lastEventId = lastEventId }
            return true
        }
        context.shouldAbort = { [self] in
            if isStopping { return true }
            guard ContinuousClock.now - lastByteAt > deadAfter else { return false }
            outcome.reason = "no data for \(settings.deadConnectionTimeoutMs) ms, connection presumed dead"
            return true
        }
        do {
            try configure(context: context)
        } catch {
            return AttemptOutcome(wasAccepted: false, reason: error.message)
        }
        let code = withExtendedLifetime(context) { easy.perform() }
        if outcome.reason == nil {
            outcome.reason = code == CURLE_OK ? "stream closed by the server" : easy.error(for: code).message
        }
        return outcome
    }

    /// Accepts a 200 `text/event-stream` response (and reports it), else says why not.
    private func evaluate(_ collector: ResponseCollector) -> AttemptOutcome {
        guard collector.statusCode == 200 else {
            return AttemptOutcome(wasAccepted: false, reason: "HTTP status \(collector.statusCode)")
        }
        let contentType = collector.headers.value(of: "Content-Type") ?? ""
        let mediaType = contentType.split(separator: ";").first.map { String($0).trimmingSpaces.lowercased() }
        guard mediaType == "text/event-stream" else {
            return AttemptOutcome(wasAccepted: false, reason: "unexpected content type '\(contentType)'")
        }
        handler(.connected(dateHeader: collector.headers.value(of: "Date")))
        return AttemptOutcome(wasAccepted: true, reason: nil)
    }

    private func handle(_ outputs: [SSEParser.Output]) {
        for output in outputs {
            switch output {
            case .event(let event):
                handler(.event(event))
            case .retry(let milliseconds):
                backoff.baseDelayMs = max(Self.minRetryDelayMs, milliseconds)
            case .oversizedEvent(let limitBytes):
                handler(.invalidEvent(reason: "event larger than \(limitBytes) bytes skipped"))
            }
        }
    }

    private func configure(context: CurlTransferContext) throws(HTTPClientError) {
        try easy.reset(connectTimeoutMs: settings.connectTimeoutMs, caFile: settings.caFile)
        try easy.set(CURLOPT_URL, settings.url)
        try easy.set(CURLOPT_HTTPGET, 1)
        var headers = settings.headers + [
            HTTPHeader(name: "Accept", value: "text/event-stream"),
            HTTPHeader(name: "Cache-Control", value: "no-cache"),
        ]
        if !parser.lastEventId.isEmpty {
            headers.append(HTTPHeader(name: "Last-Event-ID", value: parser.lastEventId))
        }
        try easy.setHeaders(headers)
        try context.install(on: easy)
    }
}
