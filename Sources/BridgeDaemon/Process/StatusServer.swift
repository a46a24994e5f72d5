import BridgeCore
import HTTPServer
import ShellSupport

/// Serves the read-only status endpoints (Webhook Widget view, `/healthz`,
/// `/metrics`) on the project's bounded HTTP server, when the config asks.
final class StatusServer: Sendable {
    /// Status requests are small; a LAN client gets little room.
    static let maxConnections = 8
    static let maxHeaderBytes = 8 * 1024

    let metrics: DaemonMetrics
    private let latest = ConditionLock<RuntimeSnapshot?>(nil)
    private let server = ConditionLock<HTTPServer?>(nil)

    init(metrics: DaemonMetrics) { self.metrics = metrics }

    /// Keeps the snapshot the endpoints answer from.
    func update(_ snapshot: RuntimeSnapshot) { latest.withLock { $0 = snapshot } }

    /// The last snapshot, from any thread.
    var latestSnapshot: RuntimeSnapshot? { latest.withLock { $0 } }

    /// Starts listening on `settings.listen` (`host:port`, `[::1]:port`).
    func start(_ settings: StatusSettings) throws(StatusServerError) {
        guard let (host, port) = Self.hostAndPort(settings.listen) else { throw .badListenAddress(settings.listen) }
        let endpoints = StatusEndpoints()
        let handler: HTTPHandler = { [latest, metrics] request in
            let answer = endpoints.respond(method: request.method, path: request.target,
                                           snapshot: latest.withLock { $0 }, metrics: metrics)
            var headers = [HTTPHeader("Content-Type", answer.contentType), HTTPHeader("Cache-Control", "no-store")]
            if answer.status == 405 { headers.append(HTTPHeader("Allow", "GET, HEAD")) }
            return .response(HTTPResponse(status: answer.status, headers: headers, body: Array(answer.body.utf8)))
        }
        let configuration = HTTPServerConfiguration(
            host: host, port: port, maxHeaderBytes: Self.maxHeaderBytes, maxBodyBytes: 0, maxConnections: Self.maxConnections)
        do {
            let started = try HTTPServer.start(configuration: configuration, handler: handler)
            server.withLock { $0 = started }
        } catch {
            throw .cannotListen(settings.listen, "\(error)")
        }
    }

    var port: Int? { server.withLock { $0?.port } }

    func stop() { server.withLock { $0 }?.stop() }

    /// `127.0.0.1:8787` → ("127.0.0.1", 8787); `[::1]:8787` → ("::1", 8787).
    static func hostAndPort(_ listen: String) -> (String, Int)? {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
              (0...65_535).contains(port) else { return nil }
        var host = String(listen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
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
