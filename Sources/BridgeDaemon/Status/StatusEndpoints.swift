import BridgeCore

/// The read-only status endpoints, as a pure router the HTTP server mounts:
/// the page (`/`, its live part `/live` and its script `/page.js`), the
/// Webhook Widget view (the configured path, `/widget` by default), `/healthz`
/// and `/metrics`, all rendered from one `BridgeSnapshot`. Only GET and HEAD
/// are served. The configured widget path wins over the page's paths.
public struct StatusEndpoints: Sendable {
    public static let healthPath = "/healthz"
    public static let metricsPath = "/metrics"
    public static let jsonContentType = "application/json"
    public static let plainTextContentType = "text/plain; charset=utf-8"

    /// Opened when the widget is tapped; dropped when its scheme is refused.
    public var widgetURL: String?

    public init(widgetURL: String? = nil) {
        self.widgetURL = widgetURL
    }

    /// The answer to one request. `path` may carry a query, which is ignored.
    /// `snapshot` is the latest `BridgeSnapshot` (nil before the first batch).
    /// HEAD gets the status and content type of GET with an empty body.
    /// `nowMs` is the board's wall clock, for the page's "12 s ago".
    public func respond(method: String, path: String, snapshot: BridgeSnapshot?, metrics: DaemonMetrics, nowMs: Int64 = 0)
        -> (status: Int, contentType: String, body: String)
    {
        let route = Self.pathWithoutQuery(path)
        let widgetPath = snapshot?.config.status?.path ?? StatusSettings().path
        let routes = [widgetPath, Self.healthPath, Self.metricsPath, StatusPage.path, StatusPage.livePath, StatusPage.scriptPath]
        guard routes.contains(route) else {
            return (404, Self.plainTextContentType, "not found\n")
        }
        guard method == "GET" || method == "HEAD" else {
            return (405, Self.plainTextContentType, "method not allowed: use GET or HEAD\n")
        }
        if method == "HEAD" { return head(route, widgetPath: widgetPath, snapshot: snapshot) }
        return route == widgetPath
            ? get(route, widgetPath: widgetPath, snapshot: snapshot, metrics: metrics)
            : page(route, snapshot: snapshot, nowMs: nowMs) ?? get(route, widgetPath: widgetPath, snapshot: snapshot, metrics: metrics)
    }

    /// HEAD: the status and content type GET would have, with nothing rendered
    /// (issue 38 item 7: a flood of HEAD renders no page).
    private func head(_ route: String, widgetPath: String, snapshot: BridgeSnapshot?) -> (status: Int, contentType: String, body: String) {
        let starting = (503, Self.plainTextContentType, "")
        switch route {
        case widgetPath: return snapshot == nil ? starting : (200, Self.jsonContentType, "")
        case StatusPage.scriptPath: return (200, StatusPage.scriptContentType, "")
        case StatusPage.path, StatusPage.livePath: return snapshot == nil ? starting : (200, StatusPage.htmlContentType, "")
        case Self.healthPath: return (HealthCheck.evaluate(snapshot).status, Self.plainTextContentType, "")
        default: return (200, PrometheusText.contentType, "")
        }
    }

    /// Whether GET of `route` renders a large body from the snapshot (the page,
    /// its live part, the Webhook Widget view): what the status server caches.
    public static func isRendered(_ route: String, widgetPath: String) -> Bool {
        route == widgetPath || route == StatusPage.path || route == StatusPage.livePath
    }

    private func get(_ route: String, widgetPath: String, snapshot: BridgeSnapshot?, metrics: DaemonMetrics)
        -> (status: Int, contentType: String, body: String)
    {
        switch route {
        case Self.healthPath:
            let health = HealthCheck.evaluate(snapshot)
            return (health.status, Self.plainTextContentType, health.body)
        case Self.metricsPath:
            return (200, PrometheusText.contentType, metrics.prometheusText() + RuntimeGauges.prometheusText(for: snapshot))
        default:
            guard let snapshot else { return (503, Self.plainTextContentType, "starting\n") }
            return (200, Self.jsonContentType, StatusView.body(for: snapshot, url: widgetURL))
        }
    }

    /// The page's three paths; nil for any other.
    private func page(_ route: String, snapshot: BridgeSnapshot?, nowMs: Int64) -> (status: Int, contentType: String, body: String)? {
        switch route {
        case StatusPage.scriptPath:
            return (200, StatusPage.scriptContentType, StatusPage.script)
        case StatusPage.path, StatusPage.livePath:
            guard let snapshot else { return (503, Self.plainTextContentType, "starting\n") }
            let body = route == StatusPage.path ? StatusPage.document(snapshot, nowMs: nowMs) : StatusPage.live(snapshot, nowMs: nowMs)
            return (200, StatusPage.htmlContentType, body)
        default:
            return nil
        }
    }

    /// The path before any `?query` or `#fragment`.
    static func pathWithoutQuery(_ path: String) -> String {
        String(path.prefix(while: { $0 != "?" && $0 != "#" }))
    }
}
