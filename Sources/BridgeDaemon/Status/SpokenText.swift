import BridgeCore

/// Small text helpers for sentences a person would say (VoiceOver).
enum SpokenText {
    /// A label in the middle of a sentence: each capitalized word whose other
    /// letters are lower case is lowered ("Porch Light" -> "porch light"), while
    /// acronyms and mixed-case names stay as written ("TV", "iPad").
    static func midSentence(_ label: String) -> String {
        label.split(separator: " ", omittingEmptySubsequences: false)
            .map { lowerCapitalizedWord(String($0)) }
            .joined(separator: " ")
    }

    /// The text with its first letter in upper case ("fan on" -> "Fan on").
    static func sentenceStart(_ text: String) -> String { DisplayText.sentenceStart(text) }

    private static func lowerCapitalizedWord(_ word: String) -> String {
        guard let first = word.first, first.isUppercase else { return word }
        let rest = word.dropFirst()
        guard !rest.contains(where: { $0.isUppercase }) else { return word }
        return first.lowercased() + rest
    }
}
