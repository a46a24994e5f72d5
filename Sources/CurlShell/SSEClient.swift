/// A Server-Sent Events client on its own thread (libcurl), reconnecting forever.
///
/// Sends `Accept: text/event-stream` and, once an id was seen, `Last-Event-ID`.
/// A stream silent for `deadConnectionTimeoutMs` is dropped and reopened. Failures
/// (network, non-200, wrong content type) back off exponentially with jitter; the
/// server's `retry:` sets the base delay. Events go to `handler` **on the client's
/// thread**: it must be cheap and must not block (hand the event to the owner's
/// bounded queue); the shell itself holds at most one event (`maxEventBytes`).
/// `stop()` returns within about a second.
public final class SSEClient: Sendable {
    struct State {
        var isStopping = false
        var lastEventId: String
    }

    let settings: SSEClientSettings
    let handler: @Sendable (SSEClientEvent) -> Void
    let state: ConditionLock<State>
    private let worker = ConditionLock<ShellThread?>(nil)

    /// A client that reports to `handler`; nothing happens until `start()`.
    public init(settings: SSEClientSettings, handler: @escaping @Sendable (SSEClientEvent) -> Void) {
        self.settings = settings
        self.handler = handler
        self.state = ConditionLock(State(lastEventId: settings.initialLastEventId))
    }

    deinit {
        stop()
    }

    /// Starts the client's thread, which connects at once.
    public func start() throws {
        let runner = SSEStreamRunner(easy: try CurlEasy(), settings: settings, handler: handler, state: state)
        let thread = try ShellThread { runner.run() }
        worker.withLock { $0 = thread }
    }

    /// Closes the stream and waits for the client's thread (about a second at most).
    public func stop() {
        state.withLock { $0.isStopping = true }
        let thread = worker.withLock { current in
            defer { current = nil }
            return current
        }
        thread?.join()
    }

    /// The id of the last event dispatched (sent as `Last-Event-ID` on reconnect).
    public var lastEventId: String {
        state.withLock { $0.lastEventId }
    }
}
