/// HTTP requests on one worker thread that owns one reused libcurl handle, so the
/// connection and TLS session are kept alive between requests.
///
/// `send` queues a request (at most `maxQueuedRequests` waiting) and returns at once;
/// `completion` is called exactly once, **on the worker thread** (keep it cheap), or on
/// the caller's thread when the request is refused (queue full, stopped). Requests run
/// one at a time in order. Proxies come from libcurl's environment handling
/// (`HTTPS_PROXY`, `NO_PROXY`). Header values (the token) never appear in errors.
public final class HTTPClient: Sendable {
    /// Called once with the response or the reason there is none.
    public typealias Completion = @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void

    struct Job {
        let request: HTTPRequest
        let completion: Completion
    }

    struct State {
        var queue: [Job] = []
        var isStopping = false
        var isAbandoningInFlight = false
    }

    let settings: HTTPClientSettings
    let state = ConditionLock(State())
    private let worker = ConditionLock<ShellThread?>(nil)

    /// Creates the handle and starts the worker thread.
    public init(settings: HTTPClientSettings = HTTPClientSettings()) throws {
        self.settings = settings
        let easy = try CurlEasy()
        let transferrer = HTTPTransferrer(easy: easy, settings: settings)
        let thread = try ShellThread { [state] in
            HTTPClient.runWorker(state: state, transferrer: transferrer)
        }
        worker.withLock { $0 = thread }
    }

    deinit {
        stop(abandonInFlight: true)
    }

    /// Queues `request`; see the type's documentation for where `completion` runs.
    public func send(_ request: HTTPRequest, completion: @escaping Completion) {
        let refusal: HTTPClientError? = state.withLock { state in
            if state.isStopping { return HTTPClientError(kind: .stopped, message: "HTTP client stopped") }
            if state.queue.count >= settings.maxQueuedRequests {
                return HTTPClientError(kind: .queueFull, message: "HTTP request queue full (\(settings.maxQueuedRequests))")
            }
            state.queue.append(Job(request: request, completion: completion))
            return nil
        }
        if let refusal { completion(.failure(refusal)) }
    }

    /// Stops taking requests, fails the queued ones with `.stopped`, and waits for the
    /// request in flight: to its end (bounded by `totalTimeoutMs`), or, with
    /// `abandonInFlight`, aborted within about a second.
    public func stop(abandonInFlight: Bool = false) {
        let dropped = state.withLock { state in
            state.isStopping = true
            state.isAbandoningInFlight = abandonInFlight
            defer { state.queue = [] }
            return state.queue
        }
        let stopped = HTTPClientError(kind: .stopped, message: "HTTP client stopped")
        for job in dropped { job.completion(.failure(stopped)) }
        let thread = worker.withLock { current in
            defer { current = nil }
            return current
        }
        thread?.join()
    }

    private static func runWorker(state: ConditionLock<State>, transferrer: HTTPTransferrer) {
        while let job = nextJob(state: state) {
            let result = transferrer.perform(job.request) {
                state.withLock { $0.isAbandoningInFlight }
            }
            job.completion(result)
        }
    }

    private static func nextJob(state: ConditionLock<State>) -> Job? {
        state.wait(timeoutMs: -1) { !$0.queue.isEmpty || $0.isStopping }
        return state.withLock { state in
            guard !state.isStopping, !state.queue.isEmpty else { return nil }
            return state.queue.removeFirst()
        }
    }
}
