/// Suggestions for misspelt keys.
enum EditDistance {
    /// Edits (insert, delete, substitute, swap two neighbours) that turn one
    /// string into the other: the optimal string alignment distance.
    static func between(_ first: String, _ second: String) -> Int {
        let lhs = Array(first.unicodeScalars)
        let rhs = Array(second.unicodeScalars)
        guard !lhs.isEmpty else { return rhs.count }
        guard !rhs.isEmpty else { return lhs.count }
        var table = Array(repeating: Array(repeating: 0, count: rhs.count + 1), count: lhs.count + 1)
        for row in 0...lhs.count { table[row][0] = row }
        for column in 0...rhs.count { table[0][column] = column }
        for row in 1...lhs.count {
            for column in 1...rhs.count {
                let cost = lhs[row - 1] == rhs[column - 1] ? 0 : 1
                var best = min(table[row - 1][column] + 1, table[row][column - 1] + 1, table[row - 1][column - 1] + cost)
                if row > 1, column > 1, lhs[row - 1] == rhs[column - 2], lhs[row - 2] == rhs[column - 1] {
                    best = min(best, table[row - 2][column - 2] + 1)
                }
                table[row][column] = best
            }
        }
        return table[lhs.count][rhs.count]
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
        if let best { return best.candidate }
        return prefixSuggestion(for: word.lowercased(), among: candidates)
    }

    /// A candidate that starts with a word of four letters or more
    /// (`zigbee` → `zigbee2mqtt`), when exactly one does.
    static func prefixSuggestion(for word: String, among candidates: [String]) -> String? {
        guard word.unicodeScalars.count >= 4 else { return nil }
        let matches = candidates.filter { $0.hasPrefix(word) }
        return matches.count == 1 ? matches[0] : nil
    }
}
