/// Bounds what a config file can make the bridge report, so a hostile or
/// broken file cannot exhaust memory in `check` or in the daemon on reload:
/// the first diagnostics in file order, a few per line, a cap per file, and
/// messages of bounded length. What is left out is counted, so the report can
/// say "N more errors".
struct DiagnosticBudget {
    /// Diagnostics shown for one line (a flow mapping of 8,000 unknown keys is one line).
    static let maxPerLine = 3
    /// Diagnostics shown for the whole file.
    static let maxPerFile = 100
    /// Longest message kept, in characters (long keys or values are cut in the middle);
    /// the longest the bridge writes itself, a toggle's list of every preset, fits whole.
    static let maxMessageScalars = 512
    /// Diagnostics held before the ones past the first `maxPerFile` are dropped.
    static let maxHeld = maxPerFile * 4

    private var held: [ConfigDiagnostic] = []
    private var omittedErrorCount = 0
    private var omittedWarningCount = 0
    /// Whether any error was seen, kept or not.
    private(set) var hasError = false

    /// Holds `diagnostic` (its message bounded); past `maxHeld`, only the first
    /// ones in file order stay.
    mutating func add(_ diagnostic: ConfigDiagnostic) {
        if diagnostic.severity == .error { hasError = true }
        var bounded = diagnostic
        bounded.message = DisplayText.excerpt(diagnostic.message, maxScalars: Self.maxMessageScalars, tailScalars: 120)
        held.append(bounded)
        if held.count >= Self.maxHeld { held = selectShown() }
    }

    /// Errors found and left out before they reached the budget.
    mutating func countOmitted(errors count: Int) {
        guard count > 0 else { return }
        hasError = true
        omittedErrorCount += count
    }

    /// The diagnostics to show, in file order (stable for equal locations), and
    /// the counts of those left out.
    func finished() -> (shown: [ConfigDiagnostic], omittedErrors: Int, omittedWarnings: Int) {
        var copy = self
        let shown = copy.selectShown()
        return (shown, copy.omittedErrorCount, copy.omittedWarningCount)
    }

    /// The first `maxPerFile` held diagnostics in file order, at most
    /// `maxPerLine` per line; the others are counted as omitted.
    private mutating func selectShown() -> [ConfigDiagnostic] {
        let sorted = held.enumerated()
            .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
        var shown: [ConfigDiagnostic] = []
        var firstOmittedError: ConfigDiagnostic?
        var lastLine = 0
        var onLastLine = 0
        for diagnostic in sorted {
            if diagnostic.location.line != lastLine { lastLine = diagnostic.location.line; onLastLine = 0 }
            onLastLine += 1
            if onLastLine <= Self.maxPerLine, shown.count < Self.maxPerFile {
                shown.append(diagnostic)
            } else if diagnostic.severity == .error {
                omittedErrorCount += 1
                if firstOmittedError == nil { firstOmittedError = diagnostic }
            } else {
                omittedWarningCount += 1
            }
        }
        // A refused file always shows at least one of its errors, even behind
        // a hundred warnings.
        if let error = firstOmittedError, !shown.contains(where: { $0.severity == .error }) {
            if shown.count >= Self.maxPerFile, let dropped = shown.popLast() {
                if dropped.severity == .error { omittedErrorCount += 1 } else { omittedWarningCount += 1 }
            }
            shown.append(error)
            shown.sort { $0.location < $1.location }
            omittedErrorCount -= 1
        }
        return shown
    }
}
