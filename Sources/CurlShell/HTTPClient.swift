import CCurl
import ShellSupport

/// Sends HTTP requests one at a time, in order, on a `CurlMulti`'s loop (the
/// daemon's one loop, or a loop of its own), on one kept-alive connection per origin
/// (a new TLS handshake per press would cost most of the latency budget on a Pi).
/// libcurl makes the connection (`CurlConnection`: CONNECT_ONLY: DNS, TCP, TLS,
/// proxy tunnel); the client writes each request itself (`HTTPRequestWriter`) and
/// reads its answer (`HTTPResponseReader`) on that socket, watched on the same loop,
/// never blocking: one `send` and one `recv` a request instead of a libcurl transfer.
/// Each request has `totalTimeoutMs` from its start as a loop deadline. A kept-alive
/// connection that closes or fails before any byte of the answer (the server closed
/// it while idle) is replaced and the request sent once more, as libcurl does; after
/// any failure or a `Connection: close` the connection is dropped and made again.
/// Completions run on the loop's thread and must be quick.
public final class HTTPClient: LoopSource, @unchecked Sendable {
    struct Job {
        var request: HTTPClientRequest
        var completion: @Sendable (HTTPClientResult) -> Void
        /// When it fails as timed out (monotonic ms), set when it starts.
        var deadlineMs: Int64 = 0
        /// It was sent once more on a fresh connection already.
        var hasRetried = false
    }

    /// Where the request on the wire is.
    enum Phase: Equatable {
        case idle, resolving, connecting, sending, receiving
    }

    /// The request's method and header lines, kept as they came: the rendered header
    /// lines are reused while the shape stays (the daemon's PATCHes all share one).
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

    /// Bytes read from the socket at once.
    static let receiveBufferBytes = 16 * 1024

    public let settings: HTTPClientSettings
    private let multi: CurlMulti
    /// Whether `stop()` also closes the multi handle (it made it).
    private let ownsMulti: Bool
    private let keptNames: [(name: String, bytes: [UInt8])]
    /// Loop thread only, as everything below.
    private var queue: [Job] = []
    private var active: Job?
    private var phase = Phase.idle
    /// The one easy handle the connections are made with (its parsed URLs and TLS sessions kept).
    private var easy: CurlEasy?
    private var connection: CurlConnection?
    /// The request's bytes and how many went out.
    private var outgoing: [UInt8] = []
    private var sentCount = 0
    private var reader: HTTPResponseReader
    private let receiveBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: HTTPClient.receiveBufferBytes, alignment: 1)
    /// The shape `shapeLines` were rendered for (nil: render again).
    private var shape: RequestShape?
    private var shapeLines: [UInt8] = []
    /// How many times a request shape was set up (tests: requests of one shape share one).
    private(set) var shapeSetUps = 0
    /// How many URLs were parsed (tests: a URL sent to before is not parsed again).
    var urlParses: Int { easy?.parsedURLs.parseCount ?? 0 }
    /// What the loop watches for this client, made again when the phase or connection changes.
    private var wants = LoopWants()
    private var isOnLoop = false
    private var isStopped = false
    /// Counts lookups asked for: an answer for an earlier one (its request gone) is dropped.
    private var lookupNumber = 0

    /// A client on `multi`'s loop.
    public init(settings: HTTPClientSettings = HTTPClientSettings(), on multi: CurlMulti) {
        self.settings = settings
        keptNames = HTTPResponseReader.keptNames(settings.keptResponseHeaders)
        reader = HTTPResponseReader(maxBodyBytes: settings.maxResponseBytes, keptNames: keptNames)
        self.multi = multi
        ownsMulti = false
    }

    /// A client on a loop and thread of its own (tests, tools).
    public convenience init(settings: HTTPClientSettings = HTTPClientSettings()) throws(CurlError) {
        try self.init(settings: settings, ownMulti: CurlMulti.onOwnThread())
    }

    private init(settings: HTTPClientSettings, ownMulti: CurlMulti) {
        self.settings = settings
        keptNames = HTTPResponseReader.keptNames(settings.keptResponseHeaders)
        reader = HTTPResponseReader(maxBodyBytes: settings.maxResponseBytes, keptNames: keptNames)
        multi = ownMulti
        ownsMulti = true
    }

    deinit {
        receiveBuffer.deallocate()
    }

    /// Queues a request (from any thread); refused (as a failure) when the queue is
    /// full or the client stopped.
    public func send(_ request: HTTPClientRequest, completion: @escaping @Sendable (HTTPClientResult) -> Void) {
        let accepted = multi.onLoop { [self] in
            guard !isStopped, queue.count < settings.maxQueuedRequests else { return Self.refuse(request, completion) }
            queue.append(Job(request: request, completion: completion))
            startNext()
        }
        if !accepted { Self.refuse(request, completion) }
    }

    /// A request not taken (no closure of its own made for it per send).
    private static func refuse(_ request: HTTPClientRequest, _ completion: @Sendable (HTTPClientResult) -> Void) {
        completion(.failure(CurlError(request.method, message: "request queue full or client stopped")))
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
                active = nil
                dropped.insert(current, at: 0)
            }
            dropConnection()
            if isOnLoop { multi.loop.remove(self) }
            isOnLoop = false
            for job in dropped { job.completion(.failure(CurlError(job.request.method, message: "client stopped"))) }
        }
        if ownsMulti { multi.close() }
    }

    // MARK: LoopSource

    public func loopWants(nowMs: Int64) -> LoopWants { wants }

    public func loopService(ready: [LoopReadiness], nowMs: Int64) {
        guard let job = active else {
            if !ready.isEmpty { checkIdleConnection() }
            return
        }
        if nowMs >= job.deadlineMs { return fail(job, CURLE_OPERATION_TIMEDOUT) }
        if phase == .sending || phase == .receiving { advance() }
    }

    // MARK: One request

    private func startNext() {
        guard active == nil, !isStopped, !queue.isEmpty else { return }
        var job = queue.removeFirst()
        job.deadlineMs = MonotonicClock.nowMs() + Int64(max(0, settings.totalTimeoutMs))
        if !isOnLoop {
            multi.loop.add(self)
            isOnLoop = true
        }
        begin(job)
    }

    /// Writes `job`'s request and sends it on the kept connection of its origin, or on
    /// a new one, once its host's addresses are known (`resolveLines`, else looked up
    /// off the loop first, the request waiting in `.resolving` under its deadline).
    private func begin(_ job: Job, resolveLines known: [String]? = nil) {
        do throws(CurlError) {
            let handle: CurlEasy
            if let easy { handle = easy } else { handle = try CurlEasy() }
            easy = handle
            guard let url = handle.parsedURLs.parsed(for: job.request.url) else { return fail(job, CURLE_URL_MALFORMAT) }
            guard url.origin.starts(with: Self.http) || url.origin.starts(with: Self.https) else {
                return fail(job, CURLE_UNSUPPORTED_PROTOCOL)
            }
            guard let lines = headerLines(for: job.request) else {
                return fail(job, CurlError(Self.operation(job), message: "a header holds a line break"))
            }
            HTTPRequestWriter.write(method: job.request.method, target: url.target, host: url.host, headerLines: lines,
                                    body: job.request.body, into: &outgoing)
            sentCount = 0
            reader = HTTPResponseReader(maxBodyBytes: settings.maxResponseBytes, keptNames: keptNames,
                                        isHeadRequest: job.request.method == "HEAD")
            active = job
            if let connection, connection.origin == url.origin, connection.socket != nil {
                set(.sending)
                return advance()
            }
            dropConnection()
            let proxied = settings.proxy.isProxied(url.proxyScheme)
            guard let lines = known ?? url.endpoint.resolveLines(resolver: settings.resolver, throughProxy: proxied) else {
                return lookUp(url.endpoint, for: job)
            }
            try CurlConnection.configure(handle, for: url, settings)
            if !lines.isEmpty { try handle.setResolve(lines) }
            let fresh = CurlConnection(easy: handle, to: url) { [weak self] code in self?.connected(code) }
            connection = fresh
            set(.connecting)
            try fresh.start(on: multi)
        } catch {
            fail(job, error)
        }
    }

    /// Looks `endpoint`'s host up on the resolver's thread; the answer comes back on the
    /// loop (its wake pipe), where the request connects or fails as libcurl would name it.
    private func lookUp(_ endpoint: CurlEndpoint, for job: Job) {
        lookupNumber &+= 1
        let number = lookupNumber
        set(.resolving)
        settings.resolver.resolve(endpoint.host) { [weak self, multi] lookup in
            let client = self
            _ = multi.onLoop { client?.resolved(lookup, endpoint, number: number) }
        }
    }

    private func resolved(_ lookup: NameLookup, _ endpoint: CurlEndpoint, number: Int) {
        guard phase == .resolving, number == lookupNumber, let job = active, !isStopped else { return }
        switch lookup {
        case .addresses(let addresses):
            active = nil
            begin(job, resolveLines: [endpoint.resolveLine(addresses)])
        case .failure(let reason):
            fail(job, CurlError(Self.operation(job), message: reason))
        }
    }

    /// libcurl is done connecting: the request goes out, or fails with libcurl's reason.
    private func connected(_ code: CURLcode) {
        guard phase == .connecting, let job = active, let connection else { return }
        guard code == CURLE_OK else { return fail(job, code) }
        do throws(CurlError) {
            try connection.markConnected()
        } catch {
            return fail(job, error)
        }
        set(.sending)
        advance()
    }

    /// Sends what is left of the request, or reads the answer once it was sent, until
    /// the socket would block (the loop calls again when it is ready) or the answer is whole.
    private func advance() {
        guard let job = active, let connection else { return }
        do throws(CurlError) {
            if phase == .sending {
                while sentCount < outgoing.count {
                    let offset = sentCount
                    let outcome = outgoing.withUnsafeBytes { bytes in
                        Result { () throws(CurlError) in try connection.send(UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
                    }
                    let sent = try outcome.get()
                    guard sent > 0 else { return }
                    sentCount += sent
                }
                // The answer cannot be there yet: it is read once the socket says so
                // (a `recv` now would only say EAGAIN: one syscall a request saved).
                return set(.receiving)
            }
            while let count = try connection.receive(into: receiveBuffer) {
                guard count > 0 else {
                    try readEnd(job)
                    return finish(job)
                }
                let taken = try readAnswer(UnsafeRawBufferPointer(rebasing: receiveBuffer[..<count]))
                if reader.isComplete {
                    if taken < count { reader.markClosing() }
                    return finish(job)
                }
            }
        } catch {
            if isStale(job) { return retry(job) }
            fail(job, error)
        }
    }

    private func readAnswer(_ bytes: UnsafeRawBufferPointer) throws(CurlError) -> Int {
        do throws(HTTPResponseReaderError) {
            return try reader.read(bytes)
        } catch {
            throw Self.curlError(error)
        }
    }

    private func readEnd(_ job: Job) throws(CurlError) {
        do throws(HTTPResponseReaderError) {
            try reader.readEnd()
        } catch {
            throw Self.curlError(error)
        }
    }

    /// Whether `job` failed on a kept-alive connection before any byte of its answer:
    /// the server closed it while idle; sent once more on a fresh one.
    private func isStale(_ job: Job) -> Bool {
        guard let connection, connection.answeredCount > 0, !reader.hasBytes, !job.hasRetried else { return false }
        return true
    }

    private func retry(_ job: Job) {
        var again = job
        again.hasRetried = true
        active = nil
        dropConnection()
        begin(again)
    }

    private func finish(_ job: Job) {
        let response = HTTPClientResponse(status: reader.status, headers: reader.headers, body: reader.body)
        connection?.answeredCount += 1
        if reader.closesConnection { dropConnection() }
        active = nil
        set(.idle)
        job.completion(.response(response))
        startNext()
    }

    private func fail(_ job: Job, _ code: CURLcode) {
        fail(job, CurlError(Self.operation(job), code))
    }

    private func fail(_ job: Job, _ error: CurlError) {
        dropConnection()
        active = nil
        set(.idle)
        job.completion(.failure(error.operation == Self.operation(job) ? error : CurlError(Self.operation(job), as: error)))
        startNext()
    }

    // MARK: The connection

    /// An idle kept-alive connection became readable: the server closed it (or
    /// sent what nobody asked for): dropped, so the next request makes a new one.
    /// A TLS record with no data (a session ticket) reads as nothing and keeps it.
    private func checkIdleConnection() {
        guard let connection else { return }
        do throws(CurlError) {
            guard try connection.receive(into: receiveBuffer) == nil else { return dropConnection() }
        } catch {
            dropConnection()
        }
    }

    private func dropConnection() {
        guard let connection else { return }
        self.connection = nil
        connection.close(on: multi)
        set(phase == .connecting || phase == .resolving ? .idle : phase)
    }

    /// Enters `phase` and says what the loop watches for it.
    private func set(_ next: Phase) {
        phase = next
        var interests: [LoopInterest] = []
        if let socket = connection?.socket {
            interests = [LoopInterest(descriptor: socket, wantsWrite: next == .sending, wantsRead: next != .sending)]
        }
        wants = LoopWants(interests: interests, deadlineMs: active?.deadlineMs)
    }

    /// The header lines of `request`, rendered again only when its shape changed; nil when refused.
    private func headerLines(for request: HTTPClientRequest) -> [UInt8]? {
        if shape?.matches(request) == true { return shapeLines }
        shape = nil
        guard let lines = HTTPRequestWriter.headerLines(request.headers) else { return nil }
        shapeLines = lines
        shape = RequestShape(request)
        shapeSetUps += 1
        return lines
    }

    private static let http = Array("http://".utf8)
    private static let https = Array("https://".utf8)

    /// A reader's failure as libcurl named the same ones.
    private static func curlError(_ error: HTTPResponseReaderError) -> CurlError {
        switch error {
        case .malformed: CurlError("recv", CURLE_WEIRD_SERVER_REPLY)
        case .tooLarge: CurlError("recv", message: "response head or size beyond its bound")
        case .nothing: CurlError("recv", CURLE_GOT_NOTHING)
        case .cut: CurlError("recv", CURLE_PARTIAL_FILE)
        }
    }

    /// What a failure names: the method and the host (never the path, a header or the body).
    private static func operation(_ job: Job) -> String {
        job.request.method + " " + hostOf(job.request.url)
    }

    /// The host part of a URL, for error messages (never the path or query).
    static func hostOf(_ url: String) -> String {
        let afterScheme = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        return afterScheme.count > 2 ? String(afterScheme[2]) : url
    }
}
