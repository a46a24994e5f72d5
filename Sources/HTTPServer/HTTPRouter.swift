/// The project's one router: maps a method and a path to what answers them.
/// A path ending in `/*` matches everything under it; the first route added
/// for a path wins. `Handler` is what a route leads to: an `HTTPHandler` for the
/// simulator and the demo (`handler` answers unknown paths 404, known paths with
/// another method 405), or the status endpoints' own route names, which render
/// their answers from a snapshot.
public struct HTTPRouter<Handler: Sendable>: Sendable {
    private struct Route: Sendable {
        let method: String
        let path: String
        let handler: Handler

        func matches(path requested: String) -> Bool {
            if path.hasSuffix("/*") { return requested.hasPrefix(String(path.dropLast())) }
            return requested == path
        }
    }

    /// What a request leads to.
    public enum Match: Sendable {
        case found(Handler)
        /// No route has this path: 404.
        case notFound
        /// Routes have this path, for other methods: 405.
        case methodNotAllowed
    }

    private var routes: [Route] = []

    /// A router with no routes (`HTTPRouter<HTTPHandler>()` for an HTTP server's).
    public init() {}

    /// Adds a route: `method` (exact, case-sensitive) on `path`.
    public mutating func route(_ method: String, _ path: String, to handler: Handler) {
        routes.append(Route(method: method, path: path, handler: handler))
    }

    /// What `method` on `path` (without its query) leads to.
    public func match(method: String, path: String) -> Match {
        var isKnownPath = false
        for route in routes where route.matches(path: path) {
            if route.method == method { return .found(route.handler) }
            isKnownPath = true
        }
        return isKnownPath ? .methodNotAllowed : .notFound
    }
}

extension HTTPRouter where Handler == HTTPHandler {
    /// Adds a handler answering with a complete response.
    public mutating func add(_ method: String, _ path: String,
                             _ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        route(method, path, to: { .response(handler($0)) })
    }

    /// Adds a handler that may stream its answer.
    public mutating func addStreaming(_ method: String, _ path: String, _ handler: @escaping HTTPHandler) {
        route(method, path, to: handler)
    }

    /// The handler to give `HTTPServer.start`.
    public var handler: HTTPHandler {
        let router = self
        return { request in
            switch router.match(method: request.method, path: request.path) {
            case .found(let handler): return handler(request)
            case .notFound: return .response(.text(404, "not found\n"))
            case .methodNotAllowed: return .response(.text(405, "method not allowed\n"))
            }
        }
    }
}
