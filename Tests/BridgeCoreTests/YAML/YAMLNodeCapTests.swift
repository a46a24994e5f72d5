import Testing

@testable import BridgeCore

/// The cap on nodes per document: a config has a few hundred; the worst 1 MiB files had
/// 300,000 and cost a second and 50 MB to build.
@Suite struct YAMLNodeCapTests {
    static let limit = YAMLNodeBudget.maxNodes

    enum Shape: CaseIterable, Sendable {
        case flowMapping, flowList, blockMapping, blockList

        /// Nodes per entry or item.
        var nodesPerEntry: Int { self == .flowMapping || self == .blockMapping ? 2 : 1 }

        func document(entries: Int) -> String {
            let range = 0..<entries
            switch self {
            case .flowMapping: return "a: {" + range.map { "k\($0): v" }.joined(separator: ", ") + "}\n"
            case .flowList: return "a: [" + range.map { "v\($0)" }.joined(separator: ", ") + "]\n"
            case .blockMapping: return range.map { "k\($0): v\n" }.joined()
            case .blockList: return "a:\n" + range.map { "  - v\($0)\n" }.joined()
            }
        }
    }

    @Test(arguments: Shape.allCases)
    func refusesPastTheCapWithItsPlace(shape: Shape) {
        let under = YAMLParser.parse(shape.document(entries: Self.limit / shape.nodesPerEntry - 2))
        #expect(under.root != nil, "\(shape): \(under.errors.prefix(2))")
        let over = YAMLParser.parse(shape.document(entries: Self.limit / shape.nodesPerEntry + 2))
        #expect(over.root == nil)
        #expect(over.errors.count == 1)
        #expect(over.errors.first?.message.contains("more than \(Self.limit) keys, values and list items") == true,
                "\(shape): \(over.errors.prefix(2))")
        #expect((over.errors.first?.location.line ?? 0) >= 1)
    }

    /// A flow collection a key probe parses once more is counted once.
    @Test func aFlowValueProbedAsAKeyIsCountedOnce() {
        #expect(YAMLParser.parse(Shape.flowMapping.document(entries: Self.limit / 2 - 10)).root != nil)
    }
}
