/// Suggestions for misspelt keys (the config's) and names (the command line's).
public enum EditDistance {
    /// Edits (insert, delete, substitute, swap two neighbours) that turn one
    /// string into the other: the optimal string alignment distance.
    static func between(_ first: String, _ second: String) -> Int {
        let lhs = Array(first.unicodeScalars)
        let rhs = Array(second.unicodeScalars)
        guard !lhs.isEmpty else { return rhs.count }
        guard !rhs.isEmpty else { return lhs.count }
        // One flat table (row-major), not an array of arrays: this runs for
        // every unknown key of a file, which may have tens of thousands.
        let width = rhs.count + 1
        var table = [Int](repeating: 0, count: (lhs.count + 1) * width)
        for row in 0...lhs.count { table[row * width] = row }
        for column in 0...rhs.count { table[column] = column }
        for row in 1...lhs.count {
            for column in 1...rhs.count {
                let cost = lhs[row - 1] == rhs[column - 1] ? 0 : 1
                var best = min(table[(row - 1) * width + column] + 1, table[row * width + column - 1] + 1,
                               table[(row - 1) * width + column - 1] + cost)
                if row > 1, column > 1, lhs[row - 1] == rhs[column - 2], lhs[row - 2] == rhs[column - 1] {
                    best = min(best, table[(row - 2) * width + column - 2] + 1)
                }
                table[row * width + column] = best
            }
        }
        return table[lhs.count * width + rhs.count]
    }

    /// The closest candidate, if it is close enough to be a likely typo
    /// (at most a third of the word's length, at least 1, at most 3 edits).
    /// Words longer than this get no suggestion (no key is that long).
    static let maxWordScalars = 64

    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        let length = word.unicodeScalars.count
        guard length <= maxWordScalars else { return nil }
        let limit = min(3, max(1, length / 3))
        let lowercased = word.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where abs(candidate.unicodeScalars.count - length) <= limit {
            let distance = between(lowercased, candidate)
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        if let best { return best.candidate }
        return prefixSuggestion(for: word.lowercased(), among: candidates)
    }

    /// A candidate that starts with a word of four letters or more
    /// (`zigbee` → `zigbee2mqtt`), when exactly one does, or when one is the
    /// start of all the others (`zigbee2mqtt` of `zigbee2mqtt_cover`).
    static func prefixSuggestion(for word: String, among candidates: [String]) -> String? {
        guard word.unicodeScalars.count >= 4 else { return nil }
        let matches = candidates.filter { $0.hasPrefix(word) }
        guard let shortest = matches.min(by: { $0.count < $1.count }), matches.allSatisfy({ $0.hasPrefix(shortest) }) else { return nil }
        return shortest
    }
}
