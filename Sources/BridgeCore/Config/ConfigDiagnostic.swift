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

    /// The first line (control characters escaped), then the source line (an
    /// excerpt around the column when long, control characters shown as `?`)
    /// and a caret under the column.
    public func rendered() -> String {
        let head = DisplayText.escapingControls(description)
        guard let sourceLine else { return head }
        let window = SourceLineExcerpt(line: SecretMask.masked(sourceLine), column: location.column)
        return head + "\n" + window.text + "\n" + window.caret + "^"
    }
}

/// The part of a source line shown under a diagnostic: at most `maxScalars`
/// characters around the column, `…` where the line was cut, control
/// characters other than tab shown as `?`, and the white space that puts a
/// caret under the column.
struct SourceLineExcerpt {
    static let maxScalars = 120

    let text: String
    let caret: String

    init(line: String, column: Int) {
        let scalars = Array(line.unicodeScalars)
        let target = max(0, column - 1)
        var start = 0
        var end = scalars.count
        if scalars.count > Self.maxScalars {
            start = max(0, min(target - Self.maxScalars / 2, scalars.count - Self.maxScalars))
            end = start + Self.maxScalars
        }
        var shown = String.UnicodeScalarView()
        var caret = ""
        if start > 0 {
            shown.append("…")
            caret.append(" ")
        }
        for index in start..<end {
            let scalar = scalars[index]
            shown.append(scalar != "\t" && DisplayText.isControl(scalar) ? "?" : scalar)
            if index < target { caret.append(scalar == "\t" ? "\t" : " ") }
        }
        if end < scalars.count { shown.append("…") }
        let beyond = target - max(end, start)
        if beyond > 0, end == scalars.count { caret += String(repeating: " ", count: min(beyond, Self.maxScalars)) }
        text = String(shown)
        self.caret = caret
    }
}
