import BridgeCore
import HTTPServer
import ShellSupport

/// Serves the read-only status endpoints (the page at `/`, Webhook Widget
/// view, `/healthz`, `/metrics`) on the project's bounded HTTP server, when the config asks.
final class StatusServer: Sendable {
    /// Status requests are small; a LAN client gets little room. When every
    /// connection is taken, the one that has waited longest for a request, or for
    /// its client to read an answer, is closed for the newcomer (slowloris clients,
    /// and clients that pipeline requests and never read, cannot starve `/healthz`).
    static let maxConnections = 32
    static let maxHeaderBytes = 8 * 1024
    /// The whole request head must arrive within this.
    static let headTimeoutMs = 5_000

    let metrics: DaemonMetrics
    /// Builds the snapshot an answer is made from, when a request comes (on the
    /// loop's thread, between batches: the latest state); nil: not ready (503).
    /// Nothing is done for the status view after a batch of work.
    private let snapshot: @Sendable () -> BridgeSnapshot?
    private let server = ConditionLock<HTTPServer?>(nil)

    init(metrics: DaemonMetrics, snapshot: @escaping @Sendable () -> BridgeSnapshot?) {
        self.metrics = metrics
        self.snapshot = snapshot
    }

    /// Starts listening on `settings.listen` (`host:port`, `[::1]:port`), served on
    /// `loop` (the daemon's one loop: no thread of its own, none per connection).
    func start(_ settings: StatusSettings, on loop: EventLoop) throws(StatusServerError) {
        guard let address = ListenAddress.parse(settings.listen) else { throw .badListenAddress(settings.listen) }
        let (host, port) = (address.host, address.port)
        let endpoints = StatusEndpoints()
        let hostCheck = StatusHostCheck(listenHost: host, port: port)
        let handler: HTTPHandler = { [snapshot, metrics] request in
            guard hostCheck.allows(host: request.header("Host")) else {
                // DNS rebinding: a page on another name must not read the board's states.
                return .response(HTTPResponse(status: 421, headers: [HTTPHeader("Content-Type", StatusEndpoints.plainTextContentType),
                                                                    HTTPHeader("Cache-Control", "no-store")],
                                              body: Array("misdirected request: this board answers only its own address, localhost and IP literals\n".utf8)))
            }
            let answer = endpoints.respond(method: request.method, path: request.target,
                                           snapshot: snapshot(), metrics: metrics, nowMs: MonotonicClock.wallClockMs())
            var headers = [HTTPHeader("Content-Type", answer.contentType), HTTPHeader("Cache-Control", "no-store"),
                           HTTPHeader("X-Content-Type-Options", "nosniff")]
            if answer.contentType == StatusPage.htmlContentType {
                headers.append(HTTPHeader("Content-Security-Policy", StatusPage.contentSecurityPolicy))
            }
            if answer.status == 405 { headers.append(HTTPHeader("Allow", "GET, HEAD")) }
            return .response(HTTPResponse(status: answer.status, headers: headers, body: Array(answer.body.utf8)))
        }
        let configuration = HTTPServerConfiguration(
            host: host, port: port, maxHeaderBytes: Self.maxHeaderBytes, maxBodyBytes: 0, maxConnections: Self.maxConnections,
            readTimeoutMs: Self.headTimeoutMs, headTimeoutMs: Self.headTimeoutMs, evictsOldestIdleWhenFull: true)
        do {
            let started = try HTTPServer.start(configuration: configuration, handler: handler, on: loop)
            server.withLock { $0 = started }
        } catch {
            throw .cannotListen(settings.listen, "\(error)")
        }
    }

    var port: Int? { server.withLock { $0?.port } }

    /// Closes the listener and its connections; on the loop's thread.
    func stop() { server.withLock { $0 }?.stop() }
}

/// Why the status endpoint could not start.
enum StatusServerError: Error, CustomStringConvertible {
    case badListenAddress(String)
    case cannotListen(String, String)

    var description: String {
        switch self {
        case .badListenAddress(let listen): return "status.listen '\(listen)' is not host:port"
        case .cannotListen(let listen, let reason): return "cannot serve the status view on \(listen): \(reason)"
        }
    }
}
