import Foundation
import Testing

/// `bridge-bench --quick` runs every scenario end to end (mosquitto, the
/// simulator, the bridge binary) and prints its table. No timing is asserted:
/// the targets live in the benchmark, not in the tests.
@Suite("bridge-bench --quick smoke run")
struct BenchmarkSmokeTests {
    /// The directory of the test bundle's executable, where SwiftPM also puts
    /// the package's executables (`bridge-bench`, `switchboard-bridge`).
    static let buildDirectory: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (executable as NSString).deletingLastPathComponent
    }()

    static let benchPath = buildDirectory + "/bridge-bench"
    static let bridgePath = buildDirectory + "/switchboard-bridge"

    static var binariesArePresent: Bool {
        FileManager.default.isExecutableFile(atPath: benchPath) && FileManager.default.isExecutableFile(atPath: bridgePath)
    }

    static let timeoutSeconds = 180.0

    @Test("runs every scenario and prints the table",
          .enabled(if: binariesArePresent, "bridge-bench or switchboard-bridge is not built beside the tests (swift build first)"))
    func quickRunPrintsTheTable() throws {
        let run = try Self.runBench(["--quick", "--bridge", Self.bridgePath], timeoutSeconds: Self.timeoutSeconds)
        let output = run.output
        #expect(run.status == 0, "exit status \(run.status)\n\(run.errors)")
        #expect(output.contains("| scenario"), "no table printed:\n\(output)\n\(run.errors)")
        for scenario in ["start", "press → command", "state → publish", "press → confirmed", "burst", "memory", "idle", "size",
                         "unsafe press", "threads"] {
            #expect(output.contains("| \(scenario) "), "no \(scenario) row:\n\(output)")
        }
        #expect(output.contains("target(s) missed"))
        // Issue 23: an unsafe press with 4,000 ids remembered against none, each on a fresh bridge.
        let rows = Self.tableRows(output)
        #expect(rows.contains { $0.count > 2 && $0[0] == "unsafe press" && $0[1] == "CPU per press with 4000 ids against none" },
                "no unsafe-press comparison:\n\(output)")
        #expect(rows.contains { $0.count > 2 && $0[0] == "unsafe press" && $0[1] == "bridge CPU per press, 4000 ids remembered (schedstat)" })
    }

    /// `--floor`: a press's I/O with no logic, played to a child of the bench on
    /// loopback; the run ends (the child stops when its connections close) and
    /// prints the child's CPU per press, then the cost of a cache line after a wake
    /// (a second child walking a working set at each wake) and back to back.
    @Test("the floor run measures its relay and stops it",
          .enabled(if: binariesArePresent, "bridge-bench or switchboard-bridge is not built beside the tests (swift build first)"))
    func floorRunPrintsTheRelaysCPU() throws {
        let run = try Self.runBench(["--floor", "--count", "10"], timeoutSeconds: 60)
        #expect(run.status == 0, "exit status \(run.status)\n\(run.output)\n\(run.errors)")
        let lines = run.output.split(separator: "\n")
        let figure = lines.first { $0.hasPrefix("CPU per press of the relay (schedstat): ") }
        #expect(figure?.hasSuffix(" µs") == true, "no figure:\n\(run.output)\n\(run.errors)")
        for prefix in ["the same, the relay touching 6144 scattered cache lines (384 KiB) after each wake: ",
                       "a line touched after a wake: ", "the same lines touched back to back in the bench, no wake between: "] {
            #expect(lines.contains { $0.hasPrefix(prefix) }, "no line '\(prefix)…':\n\(run.output)\n\(run.errors)")
        }
    }

    /// `--instructions`: the bridge under callgrind, twice per scenario (20 and 120 units);
    /// one whole positive count per press and per published state message, the bridges
    /// stopped (callgrind writes its count only when the process exits), and each count
    /// within 1.2 × the budget recorded in `InstructionBudget` (issue 42: the figure
    /// the machine does not move, where CPU time per press does). The one callgrind run of
    /// the test suite; the debug build, as the budget was recorded.
    @Test("the instruction count runs the bridge under callgrind and stays within the recorded budget",
          .enabled(if: binariesArePresent, "bridge-bench or switchboard-bridge is not built beside the tests (swift build first)"))
    func instructionRunStaysWithinBudget() throws {
        let budget = InstructionBudget.recorded
        let run = try Self.runBench(["--instructions", "--bridge", Self.bridgePath], timeoutSeconds: 600)
        #expect(run.status == 0, "exit status \(run.status)\n\(run.output)\n\(run.errors)")
        let rows = Self.tableRows(run.output)
        for (unit, scenario, name) in InstructionBudget.units {
            let row = rows.first { $0.count > 2 && $0[0] == scenario && $0[1].hasPrefix("bridge instructions per \(name) (callgrind") }
            let count = try #require(row.flatMap { Int($0[2]) }, "no count per \(name):\n\(run.output)\n\(run.errors)")
            #expect(count > 0, "\(count) instructions per \(name)")
            let recorded = try #require(budget.figures[unit], "no budget for '\(unit)' in \(InstructionBudget.sourcePath)")
            let limit = try #require(budget.limit(unit))
            #expect(count <= limit, """
                the bridge (debug build) ran \(count) instructions per \(name), more than \(InstructionBudget.allowedFactor) × \
                the \(recorded) recorded in \(InstructionBudget.sourcePath) (limit \(limit)). If the cost is deliberate, \
                measure twice with `swift build && .build/debug/bridge-bench --instructions --bridge .build/debug/switchboard-bridge` \
                and record the new figure in InstructionBudget.recorded (\(InstructionBudget.sourcePath)) and in BENCHMARKS.md, section \
                "The instruction budget" (a test keeps the two equal), saying why in the commit; if not, find what \
                made it dearer (BENCHMARKS.md says how to profile with callgrind).
                """)
        }
    }

    /// BENCHMARKS.md quotes the budget the guard above enforces, figure for figure.
    @Test("BENCHMARKS.md quotes the recorded instruction budget")
    func benchmarksQuoteTheBudget() throws {
        let recorded = InstructionBudget.recorded
        #expect(recorded.figures.keys.sorted() == InstructionBudget.units.map(\.name).sorted(),
                "InstructionBudget.recorded needs a press and a state figure: \(recorded.figures)")
        #expect(try InstructionBudget.quotedInBenchmarks() == recorded,
                "BENCHMARKS.md's 'press N' / 'state N' lines differ from \(InstructionBudget.sourcePath): update both together")
    }

    /// The cells of each row of the printed table(s), trimmed.
    static func tableRows(_ output: String) -> [[String]] {
        output.split(separator: "\n").filter { $0.hasPrefix("| ") }.map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Runs bridge-bench with `arguments`, its output to files, stopped (by its PID) after `timeoutSeconds`.
    static func runBench(_ arguments: [String], timeoutSeconds: Double) throws -> (status: Int32, output: String, errors: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-smoke-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputURL = directory.appendingPathComponent("stdout.txt")
        let errorURL = directory.appendingPathComponent("stderr.txt")
        try #require(FileManager.default.createFile(atPath: outputURL.path, contents: nil))
        try #require(FileManager.default.createFile(atPath: errorURL.path, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: benchPath)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let finished = exited.wait(timeout: .now() + timeoutSeconds) == .success
        if !finished {
            kill(process.processIdentifier, SIGTERM)
            _ = exited.wait(timeout: .now() + 10)
        }
        let output = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        try #require(finished, "bridge-bench \(arguments.joined(separator: " ")) did not finish within \(Int(timeoutSeconds)) s\n\(errors)")
        return (process.terminationStatus, output, errors)
    }
}
