/// What loading a config file produced: the config when it has no error, and
/// every error and warning found.
public struct ConfigLoadResult: Sendable {
    /// The decoded, validated config; nil if and only if there is an error.
    public var config: BridgeConfig?
    /// The errors and warnings shown, in file order (at most
    /// `DiagnosticBudget.maxPerFile`, a few per line).
    public var diagnostics: [ConfigDiagnostic]
    /// Errors found but not shown (past the caps per line and per file).
    public var omittedErrorCount: Int
    /// Warnings found but not shown.
    public var omittedWarningCount: Int

    public init(config: BridgeConfig?, diagnostics: [ConfigDiagnostic], omittedErrorCount: Int = 0, omittedWarningCount: Int = 0) {
        self.config = config
        self.diagnostics = diagnostics
        self.omittedErrorCount = omittedErrorCount
        self.omittedWarningCount = omittedWarningCount
    }

    /// The errors only.
    public var errors: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// The warnings only.
    public var warnings: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .warning } }

    /// Every diagnostic shown with its source line and caret, separated by
    /// newlines, then how many more were found.
    public func rendered() -> String {
        (diagnostics.map { $0.rendered() } + [omittedSummary].compactMap { $0 }).joined(separator: "\n")
    }

    /// "... and 7,993 more errors and 2 more warnings not shown", or nil.
    public var omittedSummary: String? {
        var parts: [String] = []
        if omittedErrorCount > 0 { parts.append("\(omittedErrorCount) more error\(omittedErrorCount == 1 ? "" : "s")") }
        if omittedWarningCount > 0 { parts.append("\(omittedWarningCount) more warning\(omittedWarningCount == 1 ? "" : "s")") }
        guard !parts.isEmpty else { return nil }
        return "... and " + parts.joined(separator: " and ") + " not shown (fix the ones above and check again)"
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
        decoder.countOmittedErrors(parsed.omittedErrorCount)
        guard let root = parsed.rootDespiteDuplicateKeys else { return result(nil, decoder) }
        let config = decoder.decodeBridgeConfig(root)
        return result(decoder.hasError ? nil : config, decoder)
    }

    private static func result(_ config: BridgeConfig?, _ decoder: ConfigDecoder) -> ConfigLoadResult {
        let finished = decoder.budget.finished()
        return ConfigLoadResult(config: config, diagnostics: finished.shown,
                                omittedErrorCount: finished.omittedErrors, omittedWarningCount: finished.omittedWarnings)
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
