/// What the demo writes to its terminal of the bridge's log (issue 41: "API token read
/// from environment variable AIVI_DEMO_TOKEN" asked "what token?", and debug lines
/// scrolled the page's address away). The page's log keeps every line.
enum DemoTerminal {
    /// The variable the demo hands its simulator's token in (config/demo.yaml's token_env).
    static let tokenVariable = "AIVI_DEMO_TOKEN"

    /// The lines of `text` (one line, or a batch joined by newlines, in the plain format
    /// `TIME LEVEL message`) a newcomer reads: not debug, not the demo token's source.
    static func shown(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            let words = line.split(separator: " ", maxSplits: 2)
            if words.count >= 2, words[1] == "debug" { return false }
            return !line.hasSuffix("API token read from environment variable \(tokenVariable)")
        }.joined(separator: "\n")
    }
}
