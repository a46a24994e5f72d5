/// What loading a config file produced: the config when it has no error, and
/// every error and warning found.
public struct ConfigLoadResult: Sendable {
    /// The decoded, validated config; nil if and only if there is an error.
    public var config: BridgeConfig?
    /// All errors and warnings, in file order.
    public var diagnostics: [ConfigDiagnostic]

    public init(config: BridgeConfig?, diagnostics: [ConfigDiagnostic]) {
        self.config = config
        self.diagnostics = diagnostics
    }

    /// The errors only.
    public var errors: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// The warnings only.
    public var warnings: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .warning } }

    /// Every diagnostic with its source line and caret, separated by newlines.
    public func rendered() -> String {
        diagnostics.map { $0.rendered() }.joined(separator: "\n")
    }
}

/// Turns the text of a config file into a `BridgeConfig`: parses the YAML
/// subset, decodes the schema (expanding device presets) and validates it,
/// reporting all errors of the file at once. Pure: reading the file and
/// checking the token file are the daemon's work.
public enum ConfigLoader {
    /// The largest config file accepted, in bytes.
    public static let maxFileBytes = 1 << 20

    public static func load(text: String, fileName: String) -> ConfigLoadResult {
        guard text.utf8.count <= maxFileBytes else {
            let message = "the file is larger than \(maxFileBytes) bytes; a config file is a few kilobytes"
            let diagnostic = ConfigDiagnostic(severity: .error, fileName: fileName, location: SourceLocation(line: 1, column: 1), message: message)
            return ConfigLoadResult(config: nil, diagnostics: [diagnostic])
        }
        let sourceLines = splitLines(text)
        var decoder = ConfigDecoder(fileName: fileName, sourceLines: sourceLines)
        let parsed = YAMLParser.parse(text)
        for error in parsed.errors { decoder.error(error.message, at: error.location) }
        guard let root = parsed.rootDespiteDuplicateKeys else {
            return ConfigLoadResult(config: nil, diagnostics: decoder.sortedDiagnostics)
        }
        let config = decoder.decodeBridgeConfig(root)
        let diagnostics = decoder.sortedDiagnostics
        let hasError = diagnostics.contains { $0.severity == .error }
        return ConfigLoadResult(config: hasError ? nil : config, diagnostics: diagnostics)
    }

    /// The lines of the file as the diagnostics show them (no BOM, no CR).
    public static func splitLines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n":
                lines.append(String(current))
                current = String.UnicodeScalarView()
            case "\r":
                continue
            case "\u{FEFF}" where lines.isEmpty && current.isEmpty:
                continue
            default:
                current.append(scalar)
            }
        }
        lines.append(String(current))
        return lines
    }
}
