/// Why the server could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidHost(String)
    case systemCall(name: String, errno: Int32)

    public var description: String {
        switch self {
        case .invalidHost(let host): return "not an IP address literal: \(host)"
        case .systemCall(let name, let code): return "\(name) failed (errno \(code))"
        }
    }
}
