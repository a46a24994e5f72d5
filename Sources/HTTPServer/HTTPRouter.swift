/// Maps method and path to handlers. A path ending in `/*` matches everything
/// under it. Unknown paths get 404, known paths with another method 405.
public struct HTTPRouter: Sendable {
    private struct Route: Sendable {
        let method: String
        let path: String
        let handler: HTTPHandler

        func matches(path requested: String) -> Bool {
            if path.hasSuffix("/*") { return requested.hasPrefix(String(path.dropLast())) }
            return requested == path
        }
    }

    private var routes: [Route] = []

    public init() {}

    /// Adds a handler answering with a complete response.
    public mutating func add(_ method: String, _ path: String,
                             _ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        routes.append(Route(method: method, path: path, handler: { .response(handler($0)) }))
    }

    /// Adds a handler that may stream its answer.
    public mutating func addStreaming(_ method: String, _ path: String, _ handler: @escaping HTTPHandler) {
        routes.append(Route(method: method, path: path, handler: handler))
    }

    /// The handler to give `HTTPServer.start`.
    public var handler: HTTPHandler {
        let routes = self.routes
        return { request in
            let path = request.path
            let matching = routes.filter { $0.matches(path: path) }
            guard !matching.isEmpty else { return .response(.text(404, "not found\n")) }
            guard let route = matching.first(where: { $0.method == request.method }) else {
                return .response(.text(405, "method not allowed\n"))
            }
            return route.handler(request)
        }
    }
}
