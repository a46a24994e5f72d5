import CCurl
import ShellSupport

/// Sends HTTP requests one at a time on its own thread, through one reused
/// libcurl handle, so the connection and its TLS session stay alive between
/// PATCHes (a new TLS handshake per press would cost most of the latency
/// budget on a Pi). Completions run on that thread and must be quick.
public final class HTTPClient: Sendable {
    struct Job: Sendable {
        var request: HTTPClientRequest
        var completion: @Sendable (HTTPClientResult) -> Void
    }

    struct Queue {
        var jobs: [Job] = []
        var isStopped = false
    }

    public let settings: HTTPClientSettings
    private let queue = ConditionLock(Queue())
    private let worker: ConditionLock<ShellThread?> = ConditionLock(nil)

    public init(settings: HTTPClientSettings = HTTPClientSettings()) throws(ShellThreadError) {
        self.settings = settings
        CurlLibrary.initializeOnce()
        let thread = try ShellThread { [queue, settings] in Self.work(queue, settings) }
        worker.withLock { $0 = thread }
    }

    /// Queues a request; refused at once (as a failure) when the queue is full
    /// or the client stopped.
    public func send(_ request: HTTPClientRequest, completion: @escaping @Sendable (HTTPClientResult) -> Void) {
        let accepted = queue.withLock { state -> Bool in
            guard !state.isStopped, state.jobs.count < settings.maxQueuedRequests else { return false }
            state.jobs.append(Job(request: request, completion: completion))
            return true
        }
        if !accepted { completion(.failure(CurlError(request.method, message: "request queue full or client stopped"))) }
    }

    /// Finishes the request in progress (bounded by its timeout), fails the
    /// queued ones, and ends the thread.
    public func stop() {
        let dropped = queue.withLock { state -> [Job] in
            state.isStopped = true
            defer { state.jobs = [] }
            return state.jobs
        }
        for job in dropped { job.completion(.failure(CurlError(job.request.method, message: "client stopped"))) }
        worker.withLock { thread in
            thread?.join()
            thread = nil
        }
    }

    private static func work(_ queue: ConditionLock<Queue>, _ settings: HTTPClientSettings) {
        var easy: CurlEasy?
        while true {
            let job = queue.wait(timeoutMs: -1, until: { $0.isStopped || !$0.jobs.isEmpty }) { state -> Job? in
                state.isStopped || state.jobs.isEmpty ? nil : state.jobs.removeFirst()
            }
            guard let job else { return }
            do {
                if easy == nil { easy = try CurlEasy() }
                guard let handle = easy else { continue }
                let isStopped: @Sendable () -> Bool = { queue.withLock { $0.isStopped } }
                job.completion(perform(job.request, on: handle, settings, isStopped: isStopped))
            } catch {
                easy = nil
                job.completion(.failure(error))
            }
        }
    }

    private static func perform(_ request: HTTPClientRequest, on easy: CurlEasy, _ settings: HTTPClientSettings,
                                isStopped: @escaping @Sendable () -> Bool) -> HTTPClientResult {
        let collector = ResponseCollector(maxBodyBytes: settings.maxResponseBytes, isStopped: isStopped)
        let context = Unmanaged.passUnretained(collector).toOpaque()
        do {
            try configure(easy, for: request, settings)
            try easy.set(CURLOPT_WRITEDATA, pointer: context)
            try easy.set(CURLOPT_HEADERDATA, pointer: context)
            _ = sb_curl_setopt_write_function(easy.handle, ResponseCollector.writeBody)
            _ = sb_curl_setopt_header_function(easy.handle, ResponseCollector.writeHeader)
            // A stop aborts the transfer in progress (within about a second)
            // instead of waiting out its timeout.
            try easy.set(CURLOPT_XFERINFODATA, pointer: context)
            try easy.set(CURLOPT_NOPROGRESS, 0)
            _ = sb_curl_setopt_progress_function(easy.handle, ResponseCollector.progress)
        } catch {
            return .failure(error)
        }
        let code = withExtendedLifetime(collector) { easy.perform() }
        guard code == CURLE_OK else { return .failure(CurlError(request.method + " " + hostOf(request.url), code)) }
        return .response(HTTPClientResponse(status: easy.responseCode, headers: collector.headers, body: collector.body))
    }

    private static func configure(_ easy: CurlEasy, for request: HTTPClientRequest, _ settings: HTTPClientSettings) throws(CurlError) {
        easy.reset()
        try easy.set(CURLOPT_URL, request.url)
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_TCP_NODELAY, 1)
        try easy.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMs)
        try easy.set(CURLOPT_TIMEOUT_MS, settings.totalTimeoutMs)
        if let caFile = settings.caFile { try easy.set(CURLOPT_CAINFO, caFile) }
        if request.method == "GET" {
            try easy.set(CURLOPT_HTTPGET, 1)
        } else {
            try easy.set(CURLOPT_POSTFIELDSIZE, request.body.count)
            try easy.setCopiedBody(request.body)
            try easy.set(CURLOPT_CUSTOMREQUEST, request.method)
        }
        try easy.setHeaders(request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"])
    }

    /// The host part of a URL, for error messages (never the path or query).
    static func hostOf(_ url: String) -> String {
        let afterScheme = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        return afterScheme.count > 2 ? String(afterScheme[2]) : url
    }
}
