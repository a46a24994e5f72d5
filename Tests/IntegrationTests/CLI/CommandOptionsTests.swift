@testable import BridgeDaemon
import BridgeDemo
import CommandLineParsing
import Foundation
import Testing
import TestSupport

/// Issue 42 §1: each command its own options, declared once (`BridgeCommand.options`) and
/// read by the one parser (`CommandLineArguments`); an option that is not the command's is
/// refused naming the command, the commands that take it and a near miss; a missing value or
/// a number out of its range names the option and the range; every refusal exits 2.
/// (Issue 22 item 14: `check --json --seconds 3 --listen foo --port 9` ran check and exited 0.)
@Suite("Each command takes its own options only")
struct CommandOptionsTests {
    /// The commands of `switchboard-bridge`, as main.swift lists them: `CommandHelpTests`
    /// holds the binary's `--help` to this list.
    static var commands: [any BridgeCommand.Type] {
        [RunCommand.self, CheckCommand.self, RenderCommand.self, WatchCommand.self, DiscoverCommand.self, DemoCommand.self]
    }

    static let tool = CommandLineTool(commands: commands)

    /// The command `line` asks to run, failing the test when it asks for text.
    static func command(_ line: [String]) throws -> any BridgeCommand {
        guard case .run(let command) = try tool.parse(line) else { throw TestSupportError("\(line) printed text") }
        return command
    }

    static func command<Command: BridgeCommand>(_ line: [String], as type: Command.Type) throws -> Command {
        try #require(try command(line) as? Command)
    }

    @Test(arguments: [
        (["run"], UsageText.defaultConfigPath, LogLevel.info),
        (["run", "--config", "c", "--log-level", "debug"], "c", .debug),
        (["run", "-c", "c", "--log-level=WARN"], "c", .warning),
        (["run", "--config=/a=b", "--log-level", "error"], "/a=b", .error),
    ] as [([String], String, LogLevel)])
    func run(line: [String], config: String, level: LogLevel) throws {
        let run = try Self.command(line, as: RunCommand.self)
        #expect(run.configPath == config && run.logLevel == level)
    }

    @Test(arguments: [
        (["check"], UsageText.defaultConfigPath, false, WatchCommand.checkListenSeconds),
        (["check", "-c", "c"], "c", false, WatchCommand.checkListenSeconds),
        (["check", "--mqtt"], UsageText.defaultConfigPath, true, WatchCommand.checkListenSeconds),
        (["check", "--config", "c", "--mqtt", "--seconds", "2"], "c", true, 2),
        (["check", "--seconds=86400", "--mqtt"], UsageText.defaultConfigPath, true, 86_400),
    ] as [([String], String, Bool, Int)])
    func check(line: [String], config: String, mqtt: Bool, seconds: Int) throws {
        let check = try Self.command(line, as: CheckCommand.self)
        #expect(check.configPath == config && check.listensToTheBroker == mqtt && check.listenSeconds == seconds)
    }

    @Test(arguments: [
        (["render"], UsageText.defaultConfigPath, []),
        (["render", "-c", "c", "--state", "a=on"], "c", ["a=on"]),
        (["render", "--state", "a=on", "--state=w/b=off", "--config", "c"], "c", ["a=on", "w/b=off"]),
    ] as [([String], String, [String])])
    func render(line: [String], config: String, states: [String]) throws {
        let render = try Self.command(line, as: RenderCommand.self)
        #expect(render.configPath == config && render.states == states)
    }

    @Test(arguments: [
        (["watch"], UsageText.defaultConfigPath, nil, false),
        (["watch", "--config", "c", "--seconds", "3", "--json"], "c", 3, true),
        (["watch", "-c", "c", "--seconds=1", "--seconds", "5"], "c", 5, false),
    ] as [([String], String, Int?, Bool)])
    func watch(line: [String], config: String, seconds: Int?, json: Bool) throws {
        let watch = try Self.command(line, as: WatchCommand.self)
        #expect(watch.configPath == config && watch.seconds == seconds && watch.json == json)
    }

    @Test func discover() throws {
        let plain = try Self.command(["discover"], as: DiscoverCommand.self)
        #expect(plain.arguments == DiscoverArguments())
        let given = try Self.command([
            "discover", "--mqtt-host", "broker.lan", "--port", "8883", "--username", "bridge", "--password-file", "/p", "--tls",
            "--tls-ca-file", "/ca.pem", "-c", "c", "--seconds", "9", "--widget", "living-room", "-o", "out.yaml", "--ha-prefix", "ha",
            "--token-file", "/t", "--api", "http://127.0.0.1:8080", "--state-dir", "/s",
        ], as: DiscoverCommand.self).arguments
        var expected = DiscoverArguments()
        expected.mqttHost = "broker.lan"
        expected.port = 8883
        expected.username = "bridge"
        expected.passwordFile = "/p"
        expected.tls = true
        expected.tlsCAFile = "/ca.pem"
        expected.configPath = "c"
        expected.seconds = 9
        expected.widget = "living-room"
        expected.output = "out.yaml"
        expected.homeAssistantPrefix = "ha"
        expected.tokenFile = "/t"
        expected.apiURL = "http://127.0.0.1:8080"
        expected.stateDirectory = "/s"
        #expect(given == expected)
    }

    @Test(arguments: [
        (["demo"], nil, nil, nil),
        (["demo", "--port", "0", "--listen", "127.0.0.1"], 0, "127.0.0.1", nil),
        (["demo", "--config", "d.yaml", "--port=8700"], 8700, nil, "d.yaml"),
    ] as [([String], Int?, String?, String?)])
    func demo(line: [String], port: Int?, listen: String?, config: String?) throws {
        let demo = try Self.command(line, as: DemoCommand.self)
        #expect(demo.webPort == port && demo.listen == listen && demo.configPath == config)
    }

    /// Every option of every command, by each of its names, with a value its declaration
    /// takes: the parser and the declarations agree (a new option is covered by declaring it).
    @Test func everyDeclaredOptionIsTakenByEachOfItsNames() throws {
        for command in Self.commands {
            for option in command.options {
                let value: [String]
                switch option.value {
                case .none: value = []
                case .text: value = [option.name == "--mqtt-host" ? "127.0.0.1" : option.name == "--log-level" ? "info" : "x"]
                case .number(_, let range): value = [String(range.lowerBound)]
                case .repeated: value = ["a=on"]
                }
                for name in option.names {
                    let line = [command.name, name] + value + (option.name == "--seconds" && command.name == "check" ? ["--mqtt"] : [])
                    do { _ = try Self.command(line) } catch { Issue.record("\(line): \(error)") }
                }
            }
        }
    }

    @Test(arguments: [
        // Another command's option: the commands that take it.
        (["check", "--json"], .unknownOption(command: "check", option: "--json", owners: ["watch"], suggestion: nil)),
        (["watch", "--mqtt"], .unknownOption(command: "watch", option: "--mqtt", owners: ["check"], suggestion: nil)),
        (["check", "--listen", "foo"], .unknownOption(command: "check", option: "--listen", owners: ["demo"], suggestion: nil)),
        (["check", "--port", "9"], .unknownOption(command: "check", option: "--port", owners: ["discover", "demo"], suggestion: nil)),
        (["run", "--state", "a=on"], .unknownOption(command: "run", option: "--state", owners: ["render"], suggestion: nil)),
        (["watch", "--log-level", "debug"], .unknownOption(command: "watch", option: "--log-level", owners: ["run"], suggestion: nil)),
        (["render", "--username", "u"], .unknownOption(command: "render", option: "--username", owners: ["discover"], suggestion: nil)),
        (["demo", "--seconds", "4"], .unknownOption(command: "demo", option: "--seconds", owners: ["check", "watch", "discover"], suggestion: nil)),
        (["discover", "--json"], .unknownOption(command: "discover", option: "--json", owners: ["watch"], suggestion: nil)),
        (["check", "--mqtt-host", "x"], .unknownOption(command: "check", option: "--mqtt-host", owners: ["discover"], suggestion: nil)),
        // A near miss among the command's own options (the project's one edit distance, `EditDistance`).
        (["check", "--mqt"], .unknownOption(command: "check", option: "--mqt", owners: [], suggestion: "--mqtt")),
        (["watch", "--jsno"], .unknownOption(command: "watch", option: "--jsno", owners: [], suggestion: "--json")),
        (["run", "--log-levl", "debug"], .unknownOption(command: "run", option: "--log-levl", owners: [], suggestion: "--log-level")),
        (["run", "--confg", "x"], .unknownOption(command: "run", option: "--confg", owners: [], suggestion: "--config")),
        (["render", "--stat", "a=on"], .unknownOption(command: "render", option: "--stat", owners: [], suggestion: "--state")),
        (["discover", "--mqtt"], .unknownOption(command: "discover", option: "--mqtt", owners: ["check"], suggestion: "--mqtt-host")),
        (["demo", "--hlep"], .unknownOption(command: "demo", option: "--hlep", owners: [], suggestion: "--help")),
        (["check", "--bogus"], .unknownOption(command: "check", option: "--bogus", owners: [], suggestion: nil)),
        (["watch", "-x"], .unknownOption(command: "watch", option: "-x", owners: [], suggestion: nil)),
        // A missing value, a number that is not one or out of its range, a flag given a value.
        (["run", "--config"], .missingValue(command: "run", option: "--config", valueName: "PATH")),
        (["watch", "--seconds"], .missingValue(command: "watch", option: "--seconds", valueName: "N")),
        (["watch", "--config", "--json"], .missingValue(command: "watch", option: "--config", valueName: "PATH")),
        (["render", "--state"], .missingValue(command: "render", option: "--state", valueName: "ID=on|off")),
        (["discover", "-o"], .missingValue(command: "discover", option: "--output", valueName: "FILE")),
        (["watch", "--seconds", "0"], .badNumber(command: "watch", option: "--seconds", value: "0", range: 1...86_400)),
        (["watch", "--seconds", "86401"], .badNumber(command: "watch", option: "--seconds", value: "86401", range: 1...86_400)),
        (["watch", "--seconds", "-1"], .badNumber(command: "watch", option: "--seconds", value: "-1", range: 1...86_400)),
        (["watch", "--seconds=abc"], .badNumber(command: "watch", option: "--seconds", value: "abc", range: 1...86_400)),
        (["check", "--mqtt", "--seconds", "0"], .badNumber(command: "check", option: "--seconds", value: "0", range: 1...86_400)),
        (["discover", "--seconds", "601"], .badNumber(command: "discover", option: "--seconds", value: "601", range: 1...600)),
        (["discover", "--port", "0"], .badNumber(command: "discover", option: "--port", value: "0", range: 1...65_535)),
        (["demo", "--port", "65536"], .badNumber(command: "demo", option: "--port", value: "65536", range: 0...65_535)),
        (["watch", "--json=yes"], .flagTakesNoValue(command: "watch", option: "--json")),
        (["discover", "--tls=x"], .flagTakesNoValue(command: "discover", option: "--tls")),
        // Values only the command judges, and combinations it refuses.
        (["run", "--log-level", "loud"],
         .refusedValue(command: "run", option: "--log-level", value: "loud", because: "is not a level: use one of error, warning, info, debug")),
        (["check", "--seconds", "3"], .onlyWith(command: "check", option: "--seconds", other: "--mqtt")),
        // Words where an option goes, a command that is none, an option before the command.
        (["check", "bridge.yaml"], .unexpectedArgument(command: "check", "bridge.yaml")),
        (["chek"], .unknownCommand("chek", suggestion: "check")),
        (["wacth", "--json"], .unknownCommand("wacth", suggestion: "watch")),
        (["fly"], .unknownCommand("fly", suggestion: nil)),
        (["help", "rnder"], .unknownCommand("rnder", suggestion: "render")),
        (["--config", "/a", "run"], .optionBeforeCommand("--config")),
        (["--json=1"], .optionBeforeCommand("--json")),
    ] as [([String], CommandLineError)])
    func refused(line: [String], error: CommandLineError) {
        #expect(throws: error) { try Self.tool.parse(line) }
    }

    /// The words of each refusal: the command, the option, the fix.
    @Test(arguments: [
        (.unknownOption(command: "check", option: "--port", owners: ["discover", "demo"], suggestion: nil),
         "check does not take --port: it is an option of discover and demo (see switchboard-bridge check --help)"),
        (.unknownOption(command: "watch", option: "--jsno", owners: [], suggestion: "--json"),
         "watch does not take --jsno: did you mean --json? (see switchboard-bridge watch --help)"),
        (.unknownOption(command: "discover", option: "--mqtt", owners: ["check"], suggestion: "--mqtt-host"),
         "discover does not take --mqtt: it is an option of check; did you mean --mqtt-host? (see switchboard-bridge discover --help)"),
        (.missingValue(command: "watch", option: "--seconds", valueName: "N"),
         "watch: option --seconds needs a value (N) (see switchboard-bridge watch --help)"),
        (.badNumber(command: "discover", option: "--seconds", value: "601", range: 1...600),
         "discover: option --seconds takes a whole number from 1 to 600, not '601'"),
        (.onlyWith(command: "check", option: "--seconds", other: "--mqtt"), "check takes --seconds only with --mqtt (see switchboard-bridge check --help)"),
        (.unknownCommand("chek", suggestion: "check"), "unknown command 'chek': did you mean 'check'? (see switchboard-bridge --help)"),
        (.optionBeforeCommand("--config"), "--config goes after a command, as in 'switchboard-bridge run --config ...' (see switchboard-bridge --help)"),
    ] as [(CommandLineError, String)])
    func refusalsAreSaid(error: CommandLineError, text: String) {
        #expect(error.message(program: UsageText.programName) == text)
    }

    /// `--help` wins over anything else on the line (`check --listen x --help` is check's help);
    /// the words of old (`help`, `version`, `--version` after a command) still work.
    @Test(arguments: [
        (["check", "--listen", "x", "--help"], "check"), (["watch", "-h"], "watch"), (["help", "demo"], "demo"),
        (["discover", "--bogus", "--help"], "discover"),
    ])
    func aCommandsHelpIsItsOwn(line: [String], name: String) throws {
        let command = try #require(Self.commands.first { $0.name == name })
        guard case .print(let text) = try Self.tool.parse(line) else { Issue.record("\(line) ran"); return }
        #expect(text == UsageText.help(for: command))
    }

    @Test(arguments: [[], ["--help"], ["-h"], ["help"], ["help", "--help"], ["--help", "check"]])
    func theProgramsHelpListsTheCommands(line: [String]) throws {
        guard case .print(let text) = try Self.tool.parse(line) else { Issue.record("\(line) ran"); return }
        #expect(text == UsageText.help(commands: Self.commands))
    }

    @Test(arguments: [["--version"], ["version"], ["check", "--version"]])
    func theVersion(line: [String]) throws {
        guard case .print(let text) = try Self.tool.parse(line) else { Issue.record("\(line) ran"); return }
        #expect(text == "switchboard-bridge \(BridgeVersion.number)")
    }

    /// The dispatcher runs what it parses: `demo` is a command like the others (it had a
    /// `.demo` case that said "runs from the executable" and exited 2).
    @Test func eachCommandIsDispatchedToItsOwnType() throws {
        for command in Self.commands {
            #expect(type(of: try Self.command([command.name])) == command)
        }
    }

    /// Every command line the documentation shows still parses: the README, the man pages'
    /// examples, the unit's Exec lines, the commented configs. The options and values after
    /// `switchboard-bridge COMMAND`, up to the first word that is neither (prose, `&&`, a quote).
    @Test func everyInvocationTheDocumentationShowsParses() throws {
        let files = ["README.md", "packaging/man/switchboard-bridge.1", "packaging/man/switchboard-bridge.yaml.5",
                     "systemd/switchboard-bridge.service", "packaging/bridge.yaml", "config/bridge.example.yaml"]
        var lines: [[String]] = []
        for file in files {
            let text = try PackagingTests.text(file).replacingOccurrences(of: "\\-", with: "-")
            for piece in text.components(separatedBy: "switchboard-bridge ").dropFirst() {
                lines += Self.invocation(piece).map { [$0] } ?? []
            }
        }
        #expect(lines.count >= 10, "\(lines)")
        for line in lines {
            do { _ = try Self.tool.parse(line) } catch { Issue.record("the documentation shows 'switchboard-bridge \(line.joined(separator: " "))': \(error)") }
        }
    }

    /// `check --config bridge.yaml` from the text after `switchboard-bridge `, nil when no command follows.
    static func invocation(_ text: String) -> [String]? {
        let stops = Set("`'\"#|&;()<>[]\\")
        var words = text.split(separator: "\n", maxSplits: 1).first.map { $0.split(separator: " ").map(String.init) } ?? []
        guard let name = words.first, let command = commands.first(where: { $0.name == name }) else { return nil }
        words.removeFirst()
        var line = [name]
        var takesValue = false
        for word in words {
            let cut = String(word.prefix { !stops.contains($0) })
            guard !cut.isEmpty, takesValue || cut.hasPrefix("-") else { break }
            line.append(cut)
            let (option, inline) = CommandLineArguments.split(cut)
            takesValue = !takesValue && inline == nil && command.options.contains { $0.names.contains(option) && $0.valueName != nil }
            if cut.count < word.count { break }
        }
        return line
    }

    @Test func theRealBinaryRefusesTheIssuesLine() throws {
        let directory = try TemporaryDirectory(prefix: "options")
        defer { directory.remove() }
        let check = try ChildProcess(executable: EndToEndHarness.bridgeExecutable,
                                     arguments: ["check", "--json", "--seconds", "3", "--listen", "foo", "--port", "9"],
                                     directory: directory.path, name: "check", environment: ["PATH": "/usr/bin:/bin"])
        #expect(check.waitForExit(timeoutSeconds: 20) == 2)
        #expect(check.stderr == "switchboard-bridge: check does not take --json: it is an option of watch (see switchboard-bridge check --help)\n",
                "\(check.stderr)")
    }

    @Test func buildDebHelpIsItsUsageOnly() throws {
        let directory = try TemporaryDirectory(prefix: "build-deb-help")
        defer { directory.remove() }
        let script = PackagingTests.packageRoot.appendingPathComponent("packaging/build-deb").path
        let help = try ChildProcess(executable: "/bin/bash", arguments: [script, "--help"], directory: directory.path, name: "help",
                                    environment: ["PATH": "/usr/bin:/bin"])
        #expect(help.waitForExit(timeoutSeconds: 20) == 0)
        #expect(help.stdout.hasPrefix("Builds the Debian package"), "\(help.stdout)")
        #expect(help.stdout.contains("--out DIR") && help.stdout.hasSuffix("packaging/changelog's first entry must match.\n"), "\(help.stdout)")
        #expect(!help.stdout.contains("set -euo pipefail") && !help.stdout.contains("#"), "\(help.stdout)")
    }
}
