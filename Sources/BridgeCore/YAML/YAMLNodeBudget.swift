/// The most nodes (keys, values, list items) one document may have. A config has a
/// few hundred; a file under the size cap could otherwise hold 300,000 (a one-line flow
/// mapping of 150,000 entries), and building that tree is what costs a second and 50 MB.
/// A reference type so the parser's non-mutating flow scanners can count too.
final class YAMLNodeBudget {
    /// Nodes accepted per document.
    static let maxNodes = 50_000

    private(set) var used = 0

    /// Counts `count` more nodes; false once the document has more than `maxNodes`.
    func take(_ count: Int) -> Bool {
        used += count
        return used <= Self.maxNodes
    }

    /// Runs `probe` (a look ahead whose nodes are parsed again later) without counting them.
    func uncounted<T>(_ probe: () throws(YAMLSyntaxError) -> T) throws(YAMLSyntaxError) -> T {
        let saved = used
        defer { used = saved }
        return try probe()
    }

    static var message: String {
        "the document has more than \(maxNodes) keys, values and list items; a config has a few hundred "
            + "(is this the right file?)"
    }
}

extension YAMLBlockParser {
    /// Counts the nodes of one entry or item starting at `line`/`column`; throws past the budget.
    func countNodes(_ count: Int, line: Int, column: Int) throws(YAMLSyntaxError) {
        guard nodeBudget.take(count) else { throw error(YAMLNodeBudget.message, line: line, column: column) }
    }
}
