import BridgeCore

extension LogLevel {
    /// The sink's level for a level of the core.
    init(_ level: BridgeLogLevel) {
        switch level {
        case .error: self = .error
        case .warning: self = .warning
        case .info: self = .info
        case .debug: self = .debug
        }
    }
}
