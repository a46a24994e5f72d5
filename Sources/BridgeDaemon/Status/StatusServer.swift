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
    /// Connections with a request ready served per pass of the loop; the rest
    /// wait for the next, after the presses the loop took meanwhile.
    static let readyConnectionsPerPass = 8
    /// Requests read a second (a burst of `requestBurst`): a page polls once a
    /// second, a monitor less; a flood waits in its clients, not on the loop.
    static let requestsPerSecond = 50
    static let requestBurst = 25

    let metrics: DaemonMetrics
    /// Builds the snapshot an answer is made from, when a request comes (on the
    /// loop's thread, between batches: the latest state); nil: not ready (503).
    /// Nothing is done for the status view after a batch of work.
    private let snapshot: @Sendable () -> BridgeSnapshot?
    /// Changes whenever the core may have changed what the status view shows
    /// (read on the loop's thread): the render cache's key.
    private let generation: @Sendable () -> UInt64
    private let server = ConditionLock<HTTPServer?>(nil)
    /// The page, its live part and the widget view, rendered off the loop.
    private let renders = StatusRenderCache()
    /// How long a request for a route never rendered yet waits for its first render.
    static let firstRenderTimeoutMs = 5_000

    init(metrics: DaemonMetrics, snapshot: @escaping @Sendable () -> BridgeSnapshot?,
         generation: @escaping @Sendable () -> UInt64 = { 0 }) {
        self.metrics = metrics
        self.snapshot = snapshot
        self.generation = generation
    }

    /// Starts listening on `settings.listen` (`host:port`, `[::1]:port`), served on
    /// `loop` (the daemon's one loop: no thread of its own, none per connection).
    func start(_ settings: StatusSettings, on loop: EventLoop) throws(StatusServerError) {
        guard let address = ListenAddress.parse(settings.listen) else { throw .badListenAddress(settings.listen) }
        let (host, port) = (address.host, address.port)
        let endpoints = StatusEndpoints()
        let hostCheck = StatusHostCheck(listenHost: host, port: port)
        let widgetPath = settings.path
        let handler: HTTPHandler = { [snapshot, metrics, generation, renders] request in
            guard hostCheck.allows(host: request.header("Host")) else {
                // DNS rebinding: a page on another name must not read the board's states.
                return .response(HTTPResponse(status: 421, headers: [HTTPHeader("Content-Type", StatusEndpoints.plainTextContentType),
                                                                    HTTPHeader("Cache-Control", "no-store")],
                                              body: Array("misdirected request: this board answers only its own address, localhost and IP literals\n".utf8)))
            }
            let nowMs = WallClock.nowEpochMs()
            let route = StatusEndpoints.pathWithoutQuery(request.target)
            guard request.method == "GET", StatusEndpoints.isRendered(route, widgetPath: widgetPath) else {
                let answer = endpoints.respond(method: request.method, path: request.target,
                                               snapshot: snapshot(), metrics: metrics, nowMs: nowMs)
                return .response(Self.response(answer.status, answer.contentType, Array(answer.body.utf8)))
            }
            // Rendered off the loop, at most once per change of what it shows.
            let cached = renders.answer(route: route, generation: generation(), nowMs: nowMs) {
                let taken = snapshot()
                return { endpoints.respond(method: "GET", path: route, snapshot: taken, metrics: metrics, nowMs: nowMs) }
            }
            if let cached { return .response(Self.response(cached.status, cached.contentType, cached.body)) }
            return .deferred {
                guard let first = renders.waitForFirst(route: route, timeoutMs: Self.firstRenderTimeoutMs) else {
                    return .response(Self.response(503, StatusEndpoints.plainTextContentType, Array("busy; try again\n".utf8)))
                }
                return .response(Self.response(first.status, first.contentType, first.body))
            }
        }
        let configuration = HTTPServerConfiguration(
            host: host, port: port, maxHeaderBytes: Self.maxHeaderBytes, maxBodyBytes: 0, maxConnections: Self.maxConnections,
            readTimeoutMs: Self.headTimeoutMs, headTimeoutMs: Self.headTimeoutMs, evictsOldestIdleWhenFull: true,
            maxReadyConnectionsPerPass: Self.readyConnectionsPerPass,
            maxRequestsPerSecond: Self.requestsPerSecond, requestBurst: Self.requestBurst)
        do {
            let started = try HTTPServer.start(configuration: configuration, handler: handler, on: loop)
            server.withLock { $0 = started }
        } catch {
            throw .cannotListen(settings.listen, "\(error)")
        }
    }

    var port: Int? { server.withLock { $0?.port } }

    /// Closes the listener and its connections, ends the render thread; on the loop's thread.
    func stop() {
        server.withLock { $0 }?.stop()
        renders.stop()
    }

    /// An answer with the status view's headers.
    private static func response(_ status: Int, _ contentType: String, _ body: [UInt8]) -> HTTPResponse {
        var headers = [HTTPHeader("Content-Type", contentType), HTTPHeader("Cache-Control", "no-store"),
                       HTTPHeader("X-Content-Type-Options", "nosniff")]
        if contentType == StatusPage.htmlContentType {
            headers.append(HTTPHeader("Content-Security-Policy", StatusPage.contentSecurityPolicy))
        }
        if status == 405 { headers.append(HTTPHeader("Allow", "GET, HEAD")) }
        return HTTPResponse(status: status, headers: headers, body: body)
    }
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
