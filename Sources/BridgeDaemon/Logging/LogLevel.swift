/// How important a log line is; raw values are syslog priorities.
public enum LogLevel: Int, CaseIterable, Comparable, Sendable, CustomStringConvertible {
    case error = 3
    case warning = 4
    case info = 6
    case debug = 7

    /// The syslog priority, as used in the `<N>` journal prefix.
    public var syslogPriority: Int { rawValue }

    /// The word used in plain log lines and in `--log-level`.
    public var name: String {
        switch self {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "info"
        case .debug: return "debug"
        }
    }

    public var description: String { name }

    /// More severe levels compare smaller: `.error < .debug`.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// True when `self` should be written at `minimumLevel` (e.g. `.warning` at `.info`).
    public func isShown(atMinimum minimumLevel: LogLevel) -> Bool { self <= minimumLevel }

    /// Parses a `--log-level` value: error, warning (or warn), info, debug; any case.
    public init(parsing text: String) throws(LogLevelParseError) {
        switch text.lowercased() {
        case "error", "err": self = .error
        case "warning", "warn": self = .warning
        case "info": self = .info
        case "debug": self = .debug
        default: throw LogLevelParseError(value: text)
        }
    }
}

/// A `--log-level` value that is not a level.
public struct LogLevelParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was given.
    public let value: String

    public var description: String {
        let choices = LogLevel.allCases.map(\.name).joined(separator: ", ")
        if value.isEmpty { return "--log-level needs a value: \(choices)" }
        return "unknown log level '\(value)'; use one of \(choices)"
    }
}
