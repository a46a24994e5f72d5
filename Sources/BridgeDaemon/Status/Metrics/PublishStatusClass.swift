/// How a PATCH of a widget ended, as a metrics label: the HTTP status class,
/// or `transport` when no answer came (connection refused, timeout, TLS).
public enum PublishStatusClass: String, Sendable, Equatable, CaseIterable {
    case success = "2xx"
    case redirect = "3xx"
    case clientError = "4xx"
    case serverError = "5xx"
    case transport
    /// A status outside 200–599 (never expected from the service).
    case other

    /// The class of `status`; nil means no HTTP answer at all.
    public static func of(_ status: Int?) -> PublishStatusClass {
        switch status {
        case nil: return .transport
        case .some(200...299): return .success
        case .some(300...399): return .redirect
        case .some(400...499): return .clientError
        case .some(500...599): return .serverError
        case .some: return .other
        }
    }
}
