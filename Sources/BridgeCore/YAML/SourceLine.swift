/// One line of a YAML document, without its line break: a view, indexed from
/// 0, into the scalars of the whole document. Lines share one buffer, so a
/// file of 300,000 short lines costs 24 bytes a line, not an array each.
struct SourceLine: RandomAccessCollection, Sendable {
    private let storage: [Unicode.Scalar]
    private let offset: Int
    let count: Int

    init(_ storage: [Unicode.Scalar], range: Range<Int>) {
        self.storage = storage
        offset = range.lowerBound
        count = range.count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Unicode.Scalar { storage[offset + position] }
}
