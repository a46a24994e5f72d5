import Glibc
import ShellSupport

/// `--instructions`: what the bridge executes per press (command, echo, confirming
/// PATCH) and per published state message, counted by callgrind. Each scenario runs
/// twice after the same start, with `small` and `large` units; the difference over
/// the extra units is the cost of one, the start and the stop cancelled. Hashing is
/// made deterministic (`SWIFT_DETERMINISTIC_HASHING`); what is left to chance is how
/// the bridge's wakes fall (an answer read with the next event or on its own), ~2 % at
/// most between runs. The times of such a run mean nothing and are not printed.
enum InstructionRun {
    /// Units in the two runs of each scenario.
    struct Counts: Sendable {
        var small: Int
        var large: Int
    }

    static let fullCounts = Counts(small: 20, large: 120)
    static let quickCounts = Counts(small: 3, large: 8)

    /// The table of instructions per unit; throws when valgrind is missing or a run fails.
    static func run(bridgeExecutable: String, isQuick: Bool, brokerTCPNoDelay: Bool) throws -> ResultTable {
        guard let directory = FileText.temporaryDirectory(prefix: "bridge-bench-instructions") else {
            throw BenchFailure("cannot make a temporary directory")
        }
        defer { DirectoryTree.remove(directory) }
        setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
        let counts = isQuick ? quickCounts : fullCounts
        var table = ResultTable()
        for (scenario, unit, figure) in [(BenchScenario.press, "press", "press → confirmed"),
                                         (.state, "published state message", "state → publish")] {
            var totals: [Int64] = []
            for count in [counts.small, counts.large] {
                let outputPath = directory + "/callgrind.\(scenario.rawValue).\(count)"
                guard let counter = CallgrindCounter.find(outputPath: outputPath) else {
                    throw BenchFailure("--instructions needs valgrind (apt-get install valgrind)")
                }
                BenchRun.progress("instructions: \(count) × \(unit) under callgrind")
                let sizes = (isQuick ? BenchSizes.quick : BenchSizes.full).counting(count)
                _ = try BenchRun.run(sizes: sizes, bridgeExecutable: bridgeExecutable,
                                     brokerTCPNoDelay: brokerTCPNoDelay, counter: counter, only: scenario)
                guard let total = counter.totalInstructions() else {
                    throw BenchFailure("callgrind wrote no count to \(outputPath) (did the bridge exit?)")
                }
                totals.append(total)
            }
            let extraUnits = counts.large - counts.small
            let perUnit = (totals[1] - totals[0]) / Int64(extraUnits)
            BenchRun.progress("instructions: \(totals[0]) and \(totals[1]) in all, \(perUnit) per \(unit)")
            table.add(figure, "bridge instructions per \(unit) (callgrind: runs of \(counts.small) and \(counts.large), "
                      + "the difference / \(extraUnits))", "\(perUnit)")
        }
        return table
    }
}
