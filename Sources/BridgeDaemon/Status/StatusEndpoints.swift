import BridgeCore
import HTTPServer

/// The read-only status endpoints, as pure routes the HTTP server mounts:
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

    /// What the status endpoints serve, by route.
    enum Route: Sendable {
        case health, metrics, widget, page, live, script
    }

    /// The routes, on the project's one router: `/healthz` and `/metrics` first,
    /// then the configured widget path, which wins over the page's paths. Only
    /// GET and HEAD are served.
    static func router(widgetPath: String) -> HTTPRouter<Route> {
        var router = HTTPRouter<Route>()
        for method in ["GET", "HEAD"] {
            router.route(method, healthPath, to: .health)
            router.route(method, metricsPath, to: .metrics)
            router.route(method, widgetPath, to: .widget)
            router.route(method, StatusPage.path, to: .page)
            router.route(method, StatusPage.livePath, to: .live)
            router.route(method, StatusPage.scriptPath, to: .script)
        }
        return router
    }

    /// The answer to one request. `path` may carry a query, which is ignored.
    /// `snapshot` is the latest `BridgeSnapshot` (nil before the first batch).
    /// HEAD gets the status and content type of GET with an empty body.
    /// `nowMs` is the board's wall clock, for the page's "12 s ago".
    public func respond(method: String, path: String, snapshot: BridgeSnapshot?, metrics: DaemonMetrics, nowMs: Int64 = 0)
        -> (status: Int, contentType: String, body: String)
    {
        let widgetPath = snapshot?.config.status?.path ?? StatusSettings().path
        switch Self.router(widgetPath: widgetPath).match(method: method, path: Self.pathWithoutQuery(path)) {
        case .notFound:
            return (404, Self.plainTextContentType, "not found\n")
        case .methodNotAllowed:
            return (405, Self.plainTextContentType, "method not allowed: use GET or HEAD\n")
        case .found(let route):
            return method == "HEAD" ? head(route, snapshot: snapshot) : get(route, snapshot: snapshot, metrics: metrics, nowMs: nowMs)
        }
    }

    /// HEAD: the status and content type GET would have, with nothing rendered
    /// (issue 38 item 7: a flood of HEAD renders no page).
    private func head(_ route: Route, snapshot: BridgeSnapshot?) -> (status: Int, contentType: String, body: String) {
        let starting = (503, Self.plainTextContentType, "")
        switch route {
        case .widget: return snapshot == nil ? starting : (200, Self.jsonContentType, "")
        case .script: return (200, StatusPage.scriptContentType, "")
        case .page, .live: return snapshot == nil ? starting : (200, StatusPage.htmlContentType, "")
        case .health: return (HealthCheck.evaluate(snapshot).status, Self.plainTextContentType, "")
        case .metrics: return (200, PrometheusText.contentType, "")
        }
    }

    /// Whether GET of `path` renders a large body from the snapshot (the page,
    /// its live part, the Webhook Widget view): what the status server caches.
    public static func isRendered(_ path: String, widgetPath: String) -> Bool {
        switch router(widgetPath: widgetPath).match(method: "GET", path: path) {
        case .found(.widget), .found(.page), .found(.live): return true
        default: return false
        }
    }

    private func get(_ route: Route, snapshot: BridgeSnapshot?, metrics: DaemonMetrics, nowMs: Int64)
        -> (status: Int, contentType: String, body: String)
    {
        switch route {
        case .health:
            let health = HealthCheck.evaluate(snapshot)
            return (health.status, Self.plainTextContentType, health.body)
        case .metrics:
            return (200, PrometheusText.contentType, metrics.prometheusText() + RuntimeGauges.prometheusText(for: snapshot))
        case .script:
            return (200, StatusPage.scriptContentType, StatusPage.script)
        case .widget, .page, .live:
            guard let snapshot else { return (503, Self.plainTextContentType, "starting\n") }
            switch route {
            case .widget: return (200, Self.jsonContentType, StatusView.body(for: snapshot, url: widgetURL))
            case .page: return (200, StatusPage.htmlContentType, StatusPage.document(snapshot, nowMs: nowMs))
            default: return (200, StatusPage.htmlContentType, StatusPage.live(snapshot, nowMs: nowMs))
            }
        }
    }

    /// The path before any `?query` or `#fragment`.
    static func pathWithoutQuery(_ path: String) -> String {
        String(path.prefix(while: { $0 != "?" && $0 != "#" }))
    }
}
