@testable import BridgeDaemon
import CommandLineParsing
import Foundation
import Testing
import TestSupport

/// Issue 42 §1: `switchboard-bridge COMMAND --help` is the command's own usage, made from
/// the declarations its parser reads; `switchboard-bridge --help` lists the commands. Checked
/// against the real binary, so main.swift's list of commands is the one the tests hold.
@Suite("Each command has its own --help")
struct CommandHelpTests {
    static func bridge(_ arguments: [String]) throws -> (status: Int32?, stdout: String, stderr: String) {
        let directory = try TemporaryDirectory(prefix: "help")
        defer { directory.remove() }
        let process = try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: arguments, directory: directory.path,
                                       name: "bridge", environment: ["PATH": "/usr/bin:/bin"])
        let status = process.waitForExit(timeoutSeconds: 20)
        return (status, process.stdout, process.stderr)
    }

    @Test func theBinarysHelpListsTheCommandsTheTestsHold() throws {
        let help = try Self.bridge(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout == UsageText.help(commands: CommandOptionsTests.commands) + "\n", "\(help.stdout)")
        for command in CommandOptionsTests.commands {
            #expect(help.stdout.contains("\n  \(command.name) "), "\(command.name)")
        }
    }

    @Test(arguments: CommandOptionsTests.commands.map { $0.name })
    func eachCommandsHelpListsItsOptions(name: String) throws {
        let command = try #require(CommandOptionsTests.commands.first { $0.name == name })
        let help = try Self.bridge([name, "--help"])
        #expect(help.status == 0 && help.stderr.isEmpty, "\(help.stderr)")
        #expect(help.stdout == UsageText.help(for: command) + "\n")
        let text = help.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.hasPrefix("switchboard-bridge \(name): "), "\(help.stdout)")
        for option in command.options + [CommandOption.help] {
            #expect(text.contains(HelpText.label(option) + " "), "\(name) --help: \(option.name)")
            #expect(text.contains(option.help.split(separator: " ").prefix(4).joined(separator: " ")), "\(name) --help: \(option.name)'s help")
        }
        for option in command.options {
            #expect(text.contains(HelpText.synopsis(option)), "\(name) --help's usage: \(option.name)")
        }
        #expect(!text.contains("--version"), "\(name) --help lists only \(name)'s options")
    }

    @Test func checksHelpIsExactlyThis() {
        #expect(UsageText.help(for: CheckCommand.self) == """
            switchboard-bridge check: validate a config: every problem on its line with the
              fix, then the widgets, actions and topics; with --mqtt also which devices the
              broker lets it hear

            Usage: switchboard-bridge check [--config PATH] [--mqtt] [--seconds N]

            Options:
              --config PATH, -c PATH  the config file (default
                                      /etc/switchboard-bridge/bridge.yaml)
              --mqtt                  once the config passes, connect to its broker, send
                                      the state queries and list which actions' devices
                                      speak (and near misses of those that do not)
              --seconds N             with --mqtt: how long to listen (default 3)
              --help, -h              show this help
            """)
    }

    @Test(arguments: [
        (["watch", "--jsno"], "switchboard-bridge: watch does not take --jsno: did you mean --json? (see switchboard-bridge watch --help)\n"),
        (["run", "--log-levl", "debug"],
         "switchboard-bridge: run does not take --log-levl: did you mean --log-level? (see switchboard-bridge run --help)\n"),
        (["chek"], "switchboard-bridge: unknown command 'chek': did you mean 'check'? (see switchboard-bridge --help)\n"),
        (["demo", "--port", "70000"], "switchboard-bridge: demo: option --port takes a whole number from 0 to 65535, not '70000'\n"),
    ])
    func theBinaryRefusesWithTheFixAndExitsTwo(line: [String], stderr: String) throws {
        let refused = try Self.bridge(line)
        #expect(refused.status == 2)
        #expect(refused.stderr == stderr, "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
    }
}
