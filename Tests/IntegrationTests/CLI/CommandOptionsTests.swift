import BridgeDaemon
import Foundation
import Testing
import TestSupport

/// Issue 22 item 14: each command refuses the options of the others, naming the
/// commands they belong to (`check --json --seconds 3 --listen foo --port 9` ran check
/// and exited 0), and `build-deb --help` prints its usage, not its first line of code.
@Suite("Each command takes its own options only")
struct CommandOptionsTests {
    @Test(arguments: [
        (["check", "--json"], "check", "--json", ["watch"]),
        (["watch", "--mqtt"], "watch", "--mqtt", ["check"]),
        (["check", "--listen", "foo"], "check", "--listen", ["demo"]),
        (["check", "--port", "9"], "check", "--port", ["discover", "demo"]),
        (["run", "--state", "a=on"], "run", "--state", ["render"]),
        (["watch", "--log-level", "debug"], "watch", "--log-level", ["run"]),
        (["render", "--username", "u"], "render", "--username", ["discover"]),
        (["demo", "--seconds", "4"], "demo", "--seconds", ["check", "watch", "discover"]),
        (["discover", "--json"], "discover", "--json", ["watch"]),
    ] as [([String], String, String, [String])])
    func anotherCommandsOptionIsRefused(line: [String], command: String, option: String, owners: [String]) {
        #expect(throws: CommandLineError.notAnOptionOf(command: command, option: option, owners: owners)) {
            try CommandLineArguments.parse(line)
        }
    }

    @Test(arguments: [
        ["watch", "--config", "c", "--seconds", "3", "--json"], ["render", "-c", "c", "--state", "a=on"],
        ["demo", "--port", "0", "--listen", "127.0.0.1"], ["discover", "--port", "1883", "--seconds", "2", "--username", "u"],
        ["run", "--config", "c", "--log-level", "debug"], ["check", "--listen", "x", "--help"],
        ["check", "--mqtt"], ["check", "--config", "c", "--mqtt", "--seconds", "2"],
    ])
    func aCommandsOwnOptionsAreTaken(line: [String]) throws {
        _ = try CommandLineArguments.parse(line)
    }

    /// Issue 22 item 4: `check --seconds` says nothing without `--mqtt`: refused, not ignored.
    @Test func checkTakesSecondsOnlyWithMQTT() throws {
        #expect(throws: CommandLineError.onlyWith(command: "check", option: "--seconds", other: "--mqtt")) {
            try CommandLineArguments.parse(["check", "--seconds", "3"])
        }
        #expect(CommandLineError.onlyWith(command: "check", option: "--seconds", other: "--mqtt").description
            == "check takes --seconds only with --mqtt (see --help)")
        let parsed = try CommandLineArguments.parse(["check", "--mqtt", "--seconds", "2"])
        #expect(parsed.mqtt && parsed.seconds == 2)
    }

    @Test func theMessageNamesTheCommandTheOptionBelongsTo() {
        #expect(CommandLineError.notAnOptionOf(command: "check", option: "--port", owners: ["discover", "demo"]).description
            == "check does not take --port: it is an option of discover and demo (see --help)")
    }

    @Test func theRealBinaryRefusesTheIssuesLine() throws {
        let directory = try TemporaryDirectory(prefix: "options")
        defer { directory.remove() }
        let check = try ChildProcess(executable: EndToEndHarness.bridgeExecutable,
                                     arguments: ["check", "--json", "--seconds", "3", "--listen", "foo", "--port", "9"],
                                     directory: directory.path, name: "check", environment: ["PATH": "/usr/bin:/bin"])
        #expect(check.waitForExit(timeoutSeconds: 20) == 2)
        #expect(check.stderr == "switchboard-bridge: check does not take --json: it is an option of watch (see --help)\n", "\(check.stderr)")
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
