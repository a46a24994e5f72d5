/// Suggestions for misspelt keys.
enum EditDistance {
    /// Levenshtein distance between two strings, by Unicode scalars.
    static func between(_ first: String, _ second: String) -> Int {
        let lhs = Array(first.unicodeScalars)
        let rhs = Array(second.unicodeScalars)
        if lhs.isEmpty { return rhs.count }
        var previous = Array(0...rhs.count)
        for (row, left) in lhs.enumerated() {
            var current = [row + 1] + Array(repeating: 0, count: rhs.count)
            for (column, right) in rhs.enumerated() {
                let substitution = previous[column] + (left == right ? 0 : 1)
                current[column + 1] = min(substitution, previous[column + 1] + 1, current[column] + 1)
            }
            previous = current
        }
        return previous[rhs.count]
    }

    /// The closest candidate, if it is close enough to be a likely typo
    /// (at most a third of the word's length, at least 1, at most 3 edits).
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        let limit = min(3, max(1, word.unicodeScalars.count / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = between(word.lowercased(), candidate)
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }
}
