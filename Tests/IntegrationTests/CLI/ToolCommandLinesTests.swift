@testable import aivi_sim
@testable import bridge_bench
import CommandLineParsing
import Foundation
import Testing
import TestSupport

/// Issue 42 §1: `aivi-sim` and `bridge-bench` declare their options through the package's
/// one parser (`CommandLineArguments`, `CommandOption`, `HelpText`), as the daemon's commands
/// do: each has a `--help` made from its declarations and the same refusals (an unknown
/// option names the nearest one; exit 2). Every command line of theirs that the repository
/// shows (the documentation, CI, the tests, fuzz/, packaging/) still parses.
@Suite("aivi-sim and bridge-bench read their options with the one parser")
struct ToolCommandLinesTests {
    /// The files that show command lines of the two programs (the tests' own are in the tables below).
    static let documents = ["README.md", "CONTRIBUTING.md", "BENCHMARKS.md", ".ci/run", "fuzz/README.md", "fuzz/corpus/SOURCES.md",
                            "fuzz/RUNS.md", "packaging/build-deb", "packaging/test-install", "packaging/test-arm64"]

    /// The command lines the tests run (BenchmarkSmokeTests, ExecutableTests) and the one
    /// `--floor` starts its relay with.
    static let benchLinesOfTheTests: [[String]] = [
        ["--quick", "--bridge", "/b"], ["--floor", "--count", "10"], ["--instructions", "--bridge", "/b"],
        ["--soak", "--quick", "--seed", "1"], BenchArguments.floorRelayWords(ports: [40_001, 40_002, 40_003], touchLines: 6_144),
    ]
    static let simLinesOfTheTests: [[String]] = [
        ["--port", "0", "--token", "T", "--widget", "living-room", "--manual-clock"],
    ]

    /// The options and values shown after `program ` in every document and test file,
    /// as `CommandOptionsTests.invocation` reads the daemon's.
    static func shownLines(of program: String, options: [CommandOption]) throws -> [[String]] {
        var texts = try documents.compactMap { try? PackagingTests.text($0) }
        let tests = PackagingTests.packageRoot.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") && !file.hasSuffix("ToolCommandLinesTests.swift") {
            texts.append(try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8))
        }
        return texts.flatMap { text in
            text.components(separatedBy: "\(program) ").dropFirst().map { invocation($0, options: options) }
        }
    }

    /// `--only press --count 500` from the text after the program's name: options and
    /// their values up to the first word that is neither; a value in capitals (`P`, `PATH`)
    /// is the documentation's placeholder, replaced by one the option takes.
    static func invocation(_ text: String, options: [CommandOption]) -> [String] {
        let stops = Set("`'\"#|&;()<>[]\\")
        let words = text.split(separator: "\n", maxSplits: 1).first.map { $0.split(separator: " ").map(String.init) } ?? []
        var line: [String] = []
        var valueOf: CommandOption?
        for word in words {
            let cut = String(word.prefix { !stops.contains($0) })
            guard !cut.isEmpty, valueOf != nil || cut.hasPrefix("-") else { break }
            if let option = valueOf {
                line.append(cut.allSatisfy(\.isUppercase) ? placeholderValue(option) : cut)
                valueOf = nil
            } else {
                line.append(cut)
                let (name, inline) = CommandLineArguments.split(cut)
                valueOf = inline == nil ? options.first { $0.names.contains(name) && $0.valueName != nil } : nil
            }
            if cut.count < word.count { break }
        }
        return line
    }

    static func placeholderValue(_ option: CommandOption) -> String {
        if case .number(_, let range) = option.value { return String(range.lowerBound) }
        return ["--seed": "1", "--only": "press"][option.name] ?? "x"
    }

    /// The words with `aivi-sim`'s required options added where a document shows one option alone (`aivi-sim --port 0`).
    static func withRequired(_ words: [String]) -> [String] {
        SimArguments.options.filter(\.isRequired).reduce(words) { line, option in
            line.contains(option.name) ? line : line + [option.name, "x"]
        }
    }

    @Test func everyBenchLineTheRepositoryShowsParses() throws {
        let shown = try Self.shownLines(of: "bridge-bench", options: BenchArguments.options)
        #expect(shown.filter { !$0.isEmpty }.count >= 20, "\(shown)")
        for words in shown + Self.benchLinesOfTheTests {
            if case .exit(let status, let text) = BenchArguments.parse(words, program: "bridge-bench"), status != 0 {
                Issue.record("the repository shows 'bridge-bench \(words.joined(separator: " "))': \(text)")
            }
        }
    }

    @Test func everySimulatorLineTheRepositoryShowsParses() throws {
        let shown = try Self.shownLines(of: "aivi-sim", options: SimArguments.options)
        #expect(shown.filter { !$0.isEmpty }.count >= 3, "\(shown)")
        for words in (shown + Self.simLinesOfTheTests).map(Self.withRequired) {
            if case .exit(let status, let text) = SimArguments.parse(words, program: "aivi-sim"), status != 0 {
                Issue.record("the repository shows 'aivi-sim \(words.joined(separator: " "))': \(text)")
            }
        }
    }

    @Test func benchOptionsAreRead() throws {
        guard case .run(let plain) = BenchArguments.parse([], program: "bridge-bench") else { Issue.record("no run"); return }
        #expect(!plain.isQuick && !plain.isSoak && plain.soakMinutes == 10 && plain.soakSeed == nil && plain.onlyScenario == nil)
        let line = ["--quick", "--bridge", "/b", "--broker-nodelay", "--cpu-quota", "10", "--min-publish-interval-ms", "0", "--only",
                    "unsafe-press", "--count", "500", "--soak", "--minutes=60", "--seed", "18446744073709551615", "--one-process"]
        guard case .run(let given) = BenchArguments.parse(line, program: "bridge-bench") else { Issue.record("no run"); return }
        #expect(given.isQuick && given.bridgePath == "/b" && given.brokerTCPNoDelay && given.cpuQuotaPercent == 10)
        #expect(given.minPublishIntervalMs == 0 && given.onlyScenario == .unsafePress && given.count == 500)
        #expect(given.isSoak && given.soakMinutes == 60 && given.soakSeed == UInt64.max && given.isSoakOneProcess)
        let relayWords = BenchArguments.floorRelayWords(ports: [40_001, 40_002, 40_003], touchLines: 6_144)
        guard case .run(let relay) = BenchArguments.parse(relayWords, program: "bridge-bench") else { Issue.record("no run"); return }
        #expect(relay.floorRelayPorts == [40_001, 40_002, 40_003] && relay.floorRelayTouchLines == 6_144)
    }

    @Test func simulatorOptionsAreRead() throws {
        let line = ["--port", "0", "--host", "::1", "--token", "T", "--widget", "a", "--widget=b", "--keepalive-ms", "500",
                    "--retry-ms", "3000", "--events-path", "/e", "--max-body-bytes", "100", "--manual-clock"]
        guard case .run(let given) = SimArguments.parse(line, program: "aivi-sim") else { Issue.record("no run"); return }
        #expect(given.settings.port == 0 && given.settings.host == "::1" && given.settings.token == "T")
        #expect(given.settings.widgetSlugs == ["a", "b"] && given.settings.keepaliveIntervalMs == 500 && given.settings.sseRetryMs == 3000)
        #expect(given.settings.eventsPath == "/e" && given.settings.maxBodyBytes == 100 && given.usesManualClock)
        guard case .run(let plain) = SimArguments.parse(["--token", "T", "--widget", "w"], program: "aivi-sim") else { return }
        #expect(plain.settings.port == 8080 && plain.settings.host == "127.0.0.1" && !plain.usesManualClock)
    }

    @Test(arguments: [
        (["--quik"], "bridge-bench: unknown option --quik: did you mean --quick? (see bridge-bench --help)"),
        (["--soak", "--sed", "1"], "bridge-bench: unknown option --sed: did you mean --seed? (see bridge-bench --help)"),
        (["--instructons"], "bridge-bench: unknown option --instructons: did you mean --instructions? (see bridge-bench --help)"),
        (["--bogus"], "bridge-bench: unknown option --bogus (see bridge-bench --help)"),
        (["quick"], "bridge-bench: 'quick' is not an option (see bridge-bench --help)"),
        (["--count", "0"], "bridge-bench: option --count takes a whole number from 1 to 100000, not '0'"),
        (["--cpu-quota", "101"], "bridge-bench: option --cpu-quota takes a whole number from 1 to 100, not '101'"),
        (["--minutes"], "bridge-bench: option --minutes needs a value (N) (see bridge-bench --help)"),
        (["--seed", "x"], "bridge-bench: option --seed: 'x' is not a whole number"),
        (["--only", "pres"],
         "bridge-bench: option --only: 'pres' is not a scenario: use one of press, state, unsafe-press, threads, stalls"),
        (["--floor-relay", "1,2,3"], "bridge-bench: option --floor-relay: '1,2,3' is not three ports and a count of lines"),
        (["--quick=1"], "bridge-bench: option --quick takes no value (see bridge-bench --help)"),
    ])
    func benchRefusesWithTheFix(line: [String], said: String) {
        guard case .exit(let status, let text) = BenchArguments.parse(line, program: "bridge-bench") else { Issue.record("ran"); return }
        #expect(status == 2 && text == said)
    }

    @Test(arguments: [
        (["--prot", "1", "--token", "t", "--widget", "w"], "aivi-sim: unknown option --prot: did you mean --port? (see aivi-sim --help)"),
        (["--widget", "w"], "aivi-sim: --token TOKEN is required (see aivi-sim --help)"),
        (["--token", "t"], "aivi-sim: --widget SLUG is required (see aivi-sim --help)"),
        (["--token", "", "--widget", "w"], "aivi-sim: option --token: '' is empty: give the owner's API token"),
        (["--token", "t", "--widget", "w", "--port", "99999"], "aivi-sim: option --port takes a whole number from 0 to 65535, not '99999'"),
        (["--token", "t", "--widget", "w", "--keepalive-ms", "0"],
         "aivi-sim: option --keepalive-ms takes a whole number from 1 to 86400000, not '0'"),
        (["--bogus"], "aivi-sim: unknown option --bogus (see aivi-sim --help)"),
    ])
    func simulatorRefusesWithTheFix(line: [String], said: String) {
        guard case .exit(let status, let text) = SimArguments.parse(line, program: "aivi-sim") else { Issue.record("ran"); return }
        #expect(status == 2 && text == said)
    }

    /// `--help` (or `-h`) anywhere wins: the help made from the declarations, every option in it.
    @Test func eachProgramsHelpListsItsOptions() {
        let programs: [(String, any ParsableCommand.Type, [[String]])] = [
            ("bridge-bench", BenchArguments.self, [["--help"], ["-h"], ["--soak", "--bogus", "--help"]]),
            ("aivi-sim", SimArguments.self, [["--help"], ["--port", "x", "-h"]]),
        ]
        for (program, command, lines) in programs {
            let help = HelpText.help(for: command, program: program)
            #expect(help.hasPrefix("\(program): ") && help.contains("\nUsage: \(program) "), "\(help)")
            for option in command.options + [CommandOption.help] {
                #expect(help.contains(HelpText.label(option) + " "), "\(program) --help: \(option.name)")
            }
            for line in lines {
                let outcome = command == BenchArguments.self
                    ? Self.exit(BenchArguments.parse(line, program: program)) : Self.exit(SimArguments.parse(line, program: program))
                #expect(outcome?.status == 0 && outcome?.text == help, "\(program) \(line)")
            }
        }
        #expect(HelpText.help(for: SimArguments.self, program: "aivi-sim").contains("/_sim/press"))
        #expect(HelpText.usage(SimArguments.self, program: "aivi-sim").hasPrefix("Usage: aivi-sim [--port N] [--host ADDRESS] --token TOKEN --widget SLUG ..."))
    }

    static func exit<Command>(_ outcome: CommandLineOutcome<Command>) -> (status: Int32, text: String)? {
        guard case .exit(let status, let text) = outcome else { return nil }
        return (status, text)
    }

    /// The real binaries: the help on stdout with status 0, a typo on stderr with status 2.
    @Test(.enabled(if: BenchmarkSmokeTests.binariesArePresent), arguments: ["bridge-bench", "aivi-sim"])
    func theBinariesSayHelpAndRefusals(program: String) throws {
        let executable = BenchmarkSmokeTests.buildDirectory + "/" + program
        let help = try Self.run(executable, ["--help"])
        #expect(help.status == 0 && help.stderr.isEmpty, "\(help.stderr)")
        let expected = program == "aivi-sim" ? HelpText.help(for: SimArguments.self, program: program)
            : HelpText.help(for: BenchArguments.self, program: program)
        #expect(help.stdout == expected + "\n")
        let refused = try Self.run(executable, ["--widgte", "w"])
        #expect(refused.status == 2 && refused.stdout.isEmpty)
        let suggestion = program == "aivi-sim" ? ": did you mean --widget?" : ""
        #expect(refused.stderr == "\(program): unknown option --widgte\(suggestion) (see \(program) --help)\n", "\(refused.stderr)")
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32?, stdout: String, stderr: String) {
        let directory = try TemporaryDirectory(prefix: "tool-lines")
        defer { directory.remove() }
        let process = try ChildProcess(executable: executable, arguments: arguments, directory: directory.path, name: "tool",
                                       environment: ["PATH": "/usr/bin:/bin"])
        let status = process.waitForExit(timeoutSeconds: 20)
        return (status, process.stdout, process.stderr)
    }
}
