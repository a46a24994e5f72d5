/// One message about a config file, pointing at a line and column.
///
/// Renders like a compiler message, then the offending line and a caret:
///
///     bridge.yaml:14:9: error: unknown key 'comand_topic' in action 'porch' (did you mean 'command_topic'?)
///             comand_topic: zigbee2mqtt/porch/set
///             ^
public struct ConfigDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// How serious a diagnostic is: any error means the config is not loaded.
    public enum Severity: String, Sendable, Equatable {
        case error
        case warning
    }

    public var severity: Severity
    public var fileName: String
    public var location: SourceLocation
    public var message: String
    /// The text of the line `location` is on, when known.
    public var sourceLine: String?

    public init(severity: Severity, fileName: String, location: SourceLocation, message: String, sourceLine: String? = nil) {
        self.severity = severity
        self.fileName = fileName
        self.location = location
        self.message = message
        self.sourceLine = sourceLine
    }

    /// The first line: `file:line:column: severity: message`.
    public var description: String {
        "\(fileName):\(location.line):\(location.column): \(severity.rawValue): \(message)"
    }

    /// The first line, then the source line and a caret under the column.
    public func rendered() -> String {
        guard let sourceLine else { return description }
        var caret = ""
        for (index, scalar) in sourceLine.unicodeScalars.enumerated() where index < location.column - 1 {
            caret += scalar == "\t" ? "\t" : " "
        }
        caret += String(repeating: " ", count: max(0, location.column - 1 - sourceLine.unicodeScalars.count))
        return description + "\n" + sourceLine + "\n" + caret + "^"
    }
}
