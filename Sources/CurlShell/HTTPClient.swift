import CCurl
import ShellSupport

/// Sends HTTP requests one at a time, in order, on a `CurlMulti` (the daemon's one
/// loop, or a loop of its own), through one reused libcurl handle, so the connection
/// and its TLS session stay alive between PATCHes (a new TLS handshake per press
/// would cost most of the latency budget on a Pi). Completions run on the loop's
/// thread and must be quick.
public final class HTTPClient: @unchecked Sendable {
    struct Job {
        var request: HTTPClientRequest
        var completion: @Sendable (HTTPClientResult) -> Void
    }

    /// The request on the wire.
    struct Active {
        var job: Job
        var transfer: CurlTransfer
    }

    /// What the easy handle's options depend on besides the URL and the body: the
    /// request's method and header lines, kept as they came (no copy is made to
    /// compare the next request with: ~0.8 k instructions a PATCH, callgrind).
    struct RequestShape {
        var method: String
        var headers: [(name: String, value: String)]

        init(_ request: HTTPClientRequest) {
            method = request.method
            headers = request.headers
        }

        /// Whether `request` has this shape: the same method and header lines, in order.
        func matches(_ request: HTTPClientRequest) -> Bool {
            guard method == request.method, headers.count == request.headers.count else { return false }
            for (kept, asked) in zip(headers, request.headers) where kept.name != asked.name || kept.value != asked.value {
                return false
            }
            return true
        }
    }

    public let settings: HTTPClientSettings
    private let multi: CurlMulti
    /// Whether `stop()` also closes the multi handle (it made it).
    private let ownsMulti: Bool
    /// Loop thread only, as everything below.
    private var queue: [Job] = []
    private var active: Active?
    private var easy: CurlEasy?
    /// The shape and URL `easy` is set up for (nil: set it up again).
    private var easyShape: RequestShape?
    private var easyURL: String?
    /// How many times a request shape was set up (tests: requests of one shape share one).
    private(set) var shapeSetUps = 0
    /// How many URLs libcurl's parsed form was made for (tests: a URL sent to before is not parsed again).
    var urlParses: Int { easy?.parsedURLs.parseCount ?? 0 }
    /// Where every response lands (one request at a time), started over for each.
    private let collector: ResponseCollector
    private var isStopped = false

    /// A client on `multi`'s loop.
    public init(settings: HTTPClientSettings = HTTPClientSettings(), on multi: CurlMulti) {
        self.settings = settings
        collector = ResponseCollector(settings)
        self.multi = multi
        ownsMulti = false
    }

    /// A client on a loop and thread of its own (tests, tools).
    public convenience init(settings: HTTPClientSettings = HTTPClientSettings()) throws(CurlError) {
        try self.init(settings: settings, ownMulti: CurlMulti.onOwnThread())
    }

    private init(settings: HTTPClientSettings, ownMulti: CurlMulti) {
        self.settings = settings
        collector = ResponseCollector(settings)
        multi = ownMulti
        ownsMulti = true
    }

    /// Queues a request (from any thread); refused (as a failure) when the queue is
    /// full or the client stopped.
    public func send(_ request: HTTPClientRequest, completion: @escaping @Sendable (HTTPClientResult) -> Void) {
        let refused: @Sendable () -> Void = { completion(.failure(CurlError(request.method, message: "request queue full or client stopped"))) }
        let accepted = multi.onLoop { [self] in
            guard !isStopped, queue.count < settings.maxQueuedRequests else { return refused() }
            queue.append(Job(request: request, completion: completion))
            startNext()
        }
        if !accepted { refused() }
    }

    /// Aborts the request in progress and fails the queued ones (each with "client
    /// stopped"); nothing is sent after. On the loop's thread (the daemon) at once;
    /// on its own loop, waits for that loop's thread to end.
    public func stop() {
        multi.onLoop { [self] in
            isStopped = true
            var dropped = queue
            queue = []
            if let current = active {
                multi.remove(current.transfer)
                active = nil
                dropped.insert(current.job, at: 0)
            }
            for job in dropped { job.completion(.failure(CurlError(job.request.method, message: "client stopped"))) }
        }
        if ownsMulti { multi.close() }
    }

    private func startNext() {
        guard active == nil, !isStopped, !queue.isEmpty else { return }
        let job = queue.removeFirst()
        do throws(CurlError) {
            let handle: CurlEasy
            if let easy { handle = easy } else { handle = try CurlEasy() }
            easy = handle
            collector.startOver()
            try configure(handle, for: job.request)
            let transfer = CurlTransfer(easy: handle) { [self] code in finish(code) }
            active = Active(job: job, transfer: transfer)
            try multi.add(transfer)
        } catch {
            active = nil
            easy = nil
            easyShape = nil
            job.completion(.failure(error))
            startNext()
        }
    }

    private func finish(_ code: CURLcode) {
        guard let current = active else { return }
        active = nil
        let result: HTTPClientResult
        if code == CURLE_OK {
            collector.readHeaders(of: current.transfer.easy)
            result = .response(HTTPClientResponse(status: current.transfer.easy.responseCode,
                                                  headers: collector.headers, body: collector.body))
        } else {
            result = .failure(CurlError(current.job.request.method + " " + Self.hostOf(current.job.request.url), code))
        }
        current.job.completion(result)
        startNext()
    }

    /// Sets `easy` up for `request`. The options that depend only on the request's
    /// shape (its method and header lines: the daemon's PATCHes all share one) are
    /// set once, while the shape stays; each request then sets its URL when it
    /// changed and its body.
    private func configure(_ easy: CurlEasy, for request: HTTPClientRequest) throws(CurlError) {
        if easyShape?.matches(request) != true {
            easyShape = nil
            try Self.configureShape(easy, for: request, collector: collector, settings)
            easyShape = RequestShape(request)
            shapeSetUps += 1
            easyURL = nil
        }
        if easyURL != request.url {
            try easy.setURL(request.url, proxy: settings.proxy)
            easyURL = request.url
        }
        if request.method != "GET" { try easy.setBody(request.body) }
    }

    /// The options of one request shape, from a reset handle.
    private static func configureShape(_ easy: CurlEasy, for request: HTTPClientRequest, collector: ResponseCollector,
                                       _ settings: HTTPClientSettings) throws(CurlError) {
        easy.reset()
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_TCP_NODELAY, 1)
        try easy.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMs)
        try easy.set(CURLOPT_TIMEOUT_MS, settings.totalTimeoutMs)
        if let caFile = settings.caFile { try easy.set(CURLOPT_CAINFO, caFile) }
        if request.method == "GET" {
            try easy.set(CURLOPT_HTTPGET, 1)
        } else {
            try easy.set(CURLOPT_CUSTOMREQUEST, request.method)
        }
        try easy.setHeaders(request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"])
        try collector.attach(to: easy)
    }

    /// The host part of a URL, for error messages (never the path or query).
    static func hostOf(_ url: String) -> String {
        let afterScheme = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        return afterScheme.count > 2 ? String(afterScheme[2]) : url
    }
}
