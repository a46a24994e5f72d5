import Foundation

/// The instruction budget (issue 42): what the DEBUG build's bridge executes per press and per
/// published state message, counted under valgrind's callgrind by
///
///     swift build && .build/debug/bridge-bench --instructions --bridge .build/debug/switchboard-bridge
///
/// (runs of 20 and 120 units, the difference / 100), as `BenchmarkSmokeTests` counts them;
/// x86_64, Swift 6.3.1 (the test toolchain): another compiler or architecture counts differently.
/// The guard fails when a figure exceeds `allowedFactor` times its budget.
///
/// A deliberate change: measure as above (twice), write the new figures in `recorded` below AND
/// in BENCHMARKS.md, section "The instruction budget" (a test keeps the two equal), and say why
/// in the commit.
struct InstructionBudget: Equatable {
    /// Instructions per unit, by unit name (`press`, `state`).
    var figures: [String: Int]

    /// The budget: four runs at a9478d8 gave a press 1,428,150-1,455,527 and a state message
    /// 801,676-819,317 (2026-12-06).
    static let recorded = InstructionBudget(figures: ["press": 1_450_000, "state": 810_000])

    /// A figure more than this times its budget fails the guard.
    static let allowedFactor = 1.2

    /// Where a deliberate change is recorded (with BENCHMARKS.md).
    static let sourcePath = "Tests/IntegrationTests/InstructionBudget.swift"

    /// The units the budget names, each with its row in the bench's table (scenario, and the noun of
    /// "bridge instructions per …").
    static let units: [(name: String, scenario: String, noun: String)] = [
        ("press", "press → confirmed", "press"), ("state", "state → publish", "published state message"),
    ]

    /// The figures BENCHMARKS.md quotes: its lines that read `press N` or `state N`.
    static func quotedInBenchmarks() throws -> InstructionBudget {
        let path = PackagingTests.packageRoot.path + "/BENCHMARKS.md"
        let text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        var figures: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count == 2, units.contains(where: { $0.name == words[0] }), let figure = Int(words[1]) else { continue }
            figures[String(words[0])] = figure
        }
        return InstructionBudget(figures: figures)
    }

    /// The most a unit may cost before the guard fails.
    func limit(_ unit: String) -> Int? {
        figures[unit].map { Int((Double($0) * Self.allowedFactor).rounded(.down)) }
    }
}
