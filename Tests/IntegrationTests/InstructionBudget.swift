import Foundation

/// The instructions a press and a published state message may cost (issue 42), recorded in
/// `Tests/IntegrationTests/instruction-budget.txt` and quoted in BENCHMARKS.md: lines of
/// `press N` and `state N`, `#` comments. The debug build's figures, counted the way
/// `BenchmarkSmokeTests` counts them.
struct InstructionBudget: Equatable {
    /// Instructions per unit, by unit name (`press`, `state`).
    var figures: [String: Int]

    /// A figure more than this times its budget fails the guard.
    static let allowedFactor = 1.2

    static let fileName = "instruction-budget.txt"
    static let relativePath = "Tests/IntegrationTests/" + fileName
    /// The units the budget names, each with its row in the bench's table (scenario, and the noun of
    /// "bridge instructions per …").
    static let units: [(name: String, scenario: String, noun: String)] = [
        ("press", "press → confirmed", "press"), ("state", "state → publish", "published state message"),
    ]

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The budget file's figures.
    static func recorded() throws -> InstructionBudget {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
        return InstructionBudget(figures: entries(in: text.split(separator: "\n").filter { !$0.hasPrefix("#") }))
    }

    /// The figures BENCHMARKS.md quotes: its lines that read `press N` or `state N`.
    static func quotedInBenchmarks() throws -> InstructionBudget {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("BENCHMARKS.md"), encoding: .utf8)
        return InstructionBudget(figures: entries(in: text.split(separator: "\n")))
    }

    /// `press N` / `state N` lines, each a unit and a whole number; other lines ignored.
    static func entries(in lines: [Substring]) -> [String: Int] {
        var figures: [String: Int] = [:]
        for line in lines {
            let words = line.split(separator: " ")
            guard words.count == 2, units.contains(where: { $0.name == words[0] }), let figure = Int(words[1]) else { continue }
            figures[String(words[0])] = figure
        }
        return figures
    }

    /// The most a unit may cost before the guard fails.
    func limit(_ unit: String) -> Int? {
        figures[unit].map { Int((Double($0) * Self.allowedFactor).rounded(.down)) }
    }
}
