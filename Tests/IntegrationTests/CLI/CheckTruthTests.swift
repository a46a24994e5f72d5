import AiviSim
import BridgeCore
@testable import BridgeDaemon
import Foundation
import Testing
import TestSupport

/// `check` tells the whole truth: whatever would make `run` fail or the service
/// refuse the content is reported first, on the config line that causes it,
/// to stderr, with a non-zero exit and no "config ok".
@Suite("check reads every file run reads")
struct CheckTruthTests {
    /// A private directory with a token file and a config written by the test.
    struct Fixture {
        let directory: TemporaryDirectory
        var tokenPath: String { directory.file("token") }
        var configPath: String { directory.file("bridge.yaml") }

        init() throws {
            directory = try TemporaryDirectory(prefix: "check")
            try "test-token\n".write(toFile: tokenPath, atomically: true, encoding: .utf8)
            chmod(tokenPath, 0o600)
        }

        /// `mqtt` lines (indented two spaces) and top-level `extra` lines; the
        /// state directory is private unless `extra` sets one.
        func check(mqtt: String = "", aivi: String = "", extra: String? = nil, action: String = "color: yellow") throws
            -> CheckCommand.Report {
            let text = """
            aivi:
              token_file: \(tokenPath)
            \(aivi)
            mqtt:
              host: 127.0.0.1
            \(mqtt)
            \(extra ?? "state_dir: \(directory.file("state"))")
            widgets:
              - slug: w
                actions:
                  - id: a
                    label: A
                    publish: {topic: a/b, payload: go}
                    \(action)
            """
            try text.write(toFile: configPath, atomically: true, encoding: .utf8)
            return CheckCommand.run(configPath: configPath, environment: [:])
        }
    }

    static func lineNumber(of text: String, in path: String) throws -> Int {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains(text) }) + 1
    }

    @Test func aMissingPasswordFileFailsOnItsLine() throws {
        let fixture = try Fixture()
        let missing = fixture.directory.file("mqtt-password")
        let report = try fixture.check(mqtt: "  username: bridge\n  password_file: \(missing)")
        let line = try Self.lineNumber(of: "password_file:", in: fixture.configPath)
        #expect(report.status == 1)
        #expect(report.problems.contains("bridge.yaml:\(line):18: error: cannot read the MQTT password file \(missing): No such file or directory"),
                "\(report.problems)")
        #expect(report.problems.contains("  password_file: \(missing)\n                 ^"))
        #expect(report.summary.isEmpty)
        #expect(!report.output.contains("config ok"))
    }

    @Test func aPasswordFileThatIsNotAFileFails() throws {
        let fixture = try Fixture()
        let report = try fixture.check(mqtt: "  username: bridge\n  password_file: \(fixture.tokenPath)/inside")
        #expect(report.status == 1)
        #expect(report.problems.contains("Not a directory"), "\(report.problems)")
    }

    @Test func aWorldReadablePasswordFileGetsTheTokenFileWarning() throws {
        let fixture = try Fixture()
        let password = fixture.directory.file("mqtt-password")
        try "secret\n".write(toFile: password, atomically: true, encoding: .utf8)
        chmod(password, 0o644)
        let report = try fixture.check(mqtt: "  username: bridge\n  password_file: \(password)")
        #expect(report.status == 0, "\(report.output)")
        #expect(report.problems.contains("warning: password file \(password) is readable by other users (mode 0644); run: chmod 600 \(password)"))
        #expect(report.summary.contains("config ok"))
        chmod(password, 0o600)
        #expect(!(try fixture.check(mqtt: "  username: bridge\n  password_file: \(password)")).problems
            .contains("password file \(password) is readable by other users"))
    }

    @Test func missingCAFilesFailOnTheirLines() throws {
        let fixture = try Fixture()
        let missing = fixture.directory.file("ca.pem")
        let tls = try fixture.check(mqtt: "  tls: { ca_file: \(missing) }")
        #expect(tls.status == 1)
        #expect(tls.problems.contains("error: cannot read the CA file \(missing): No such file or directory"), "\(tls.problems)")
        #expect(tls.problems.contains("bridge.yaml:\(try Self.lineNumber(of: "tls:", in: fixture.configPath)):"))
        let aivi = try fixture.check(aivi: "  ca_file: \(missing)")
        #expect(aivi.status == 1)
        #expect(aivi.problems.contains("bridge.yaml:3:12: error: cannot read the CA file \(missing)"), "\(aivi.problems)")
    }

    @Test func aStateDirectoryThatCannotBeCreatedFailsAndNamesTheUserChecked() throws {
        let fixture = try Fixture()
        let unreachable = fixture.directory.file("no/such/parent")
        let report = try fixture.check(extra: "state_dir: \(unreachable)")
        #expect(report.status == 1)
        #expect(report.problems.contains("error: state_dir: \(unreachable) cannot be created: its parent"), "\(report.problems)")
        #expect(report.problems.contains("(checked as user "))
        let file = try fixture.check(extra: "state_dir: \(fixture.tokenPath)")
        #expect(file.status == 1)
        #expect(file.problems.contains("exists and is not a directory"))
    }

    @Test func aStateDirectoryOtherThanTheUnitsGetsTheUnitSettingToChange() throws {
        let fixture = try Fixture()
        let report = try fixture.check()
        #expect(report.status == 0, "\(report.output)")
        #expect(report.problems.contains("warning: state_dir \(fixture.directory.file("state")): under the shipped unit only /var/lib/switchboard-bridge is writable"))
        #expect(report.problems.contains("ReadWritePaths=\(fixture.directory.file("state"))"))
        #expect(report.summary.contains("can be created and written by user"))
    }

    @Test func theTokenErrorSaysWhyAndWhichLineChoseTheSource() throws {
        let fixture = try Fixture()
        try FileManager.default.removeItem(atPath: fixture.tokenPath)
        let report = try fixture.check()
        #expect(report.status == 1)
        #expect(report.problems.contains("bridge.yaml:2:15: error: the API token cannot be read: tried token file \(fixture.tokenPath) "
                                         + "(No such file or directory (errno 2); chosen by aivi.token_file on line 2)"), "\(report.problems)")
        #expect(!report.output.contains("config ok"))
    }

    /// Issue 41 §2: with no token file yet, `check` said only "tried token file … (No such
    /// file or directory (errno 2); chosen by aivi.token_file on line 2)". It now gives the
    /// command that creates it readable by root only; run as printed, it makes a 0600 file
    /// that `check` then reads.
    @Test func aMissingTokenFileGetsTheCommandThatCreatesIt() throws {
        let fixture = try Fixture()
        try FileManager.default.removeItem(atPath: fixture.tokenPath)
        let report = try fixture.check()
        let sudo = geteuid() == 0 && getenv("SUDO_USER") == nil ? "" : "sudo "
        let command = "\(sudo)sh -c \"umask 077; cat > '\(fixture.tokenPath)'\""
        #expect(report.problems.contains("chosen by aivi.token_file on line 2); create it, readable by root only, with: \(command) "
                                         + "(paste the token, Enter, then Ctrl-D)"), "\(report.problems)")
        guard sudo.isEmpty else { return }
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", command]
        let input = Pipe()
        shell.standardInput = input
        try shell.run()
        input.fileHandleForWriting.write(Data("pasted-token\n".utf8))
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
        var info = stat()
        #expect(stat(fixture.tokenPath, &info) == 0 && info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
        let after = try fixture.check()
        #expect(after.status == 0, "\(after.output)")
    }

    @Test func aBadColorIsRefusedWithFileLineAndColumn() throws {
        let fixture = try Fixture()
        let report = try fixture.check(action: "color: \"#8B45\"")
        let line = try Self.lineNumber(of: "color:", in: fixture.configPath)
        #expect(report.status == 1)
        #expect(report.problems.contains("bridge.yaml:\(line):16: error: 'color' in action 'a' must be a named color"), "\(report.problems)")
        #expect(!report.output.contains("config ok"))
    }

    @Test func anUnquotedHashColorIsACommentAndSaysSo() throws {
        let fixture = try Fixture()
        let report = try fixture.check(action: "color: #8B4513")
        let line = try Self.lineNumber(of: "color:", in: fixture.configPath)
        #expect(report.status == 1)
        #expect(report.problems.contains("bridge.yaml:\(line):16: error: 'color' has no value: a '#' starts a comment here; quote the value: color: \"#8B4513\""),
                "\(report.problems)")
    }

    @Test func theBinarySplitsProblemsToStderrAndTheSummaryToStdout() throws {
        let fixture = try Fixture()
        _ = try fixture.check(action: "color: \"#8B45\"")
        let bad = try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: ["check", "--config", fixture.configPath],
                                   directory: fixture.directory.path, name: "check-bad", environment: [:])
        #expect(bad.waitForExit(timeoutSeconds: 20) == 1)
        #expect(bad.stdout.isEmpty, "\(bad.stdout)")
        #expect(bad.stderr.contains("error: 'color'"))
        _ = try fixture.check()
        let good = try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: ["check", "--config", fixture.configPath],
                                    directory: fixture.directory.path, name: "check-good", environment: [:])
        #expect(good.waitForExit(timeoutSeconds: 20) == 0)
        #expect(good.stdout.contains("config ok"))
        #expect(!good.stdout.contains("warning"))
        #expect(good.stderr.contains("warning: state_dir"))
    }
}

/// Whatever the simulator (the service) refuses, the config loader refuses first.
@Suite("check refuses what the service refuses")
struct CheckAgainstServiceTests {
    static let actions: [String] = [
        "color: \"#8B45\"", "color: \"#8B4513\"", "color: \"#GGGGGG\"", "color: \"#8b4513\"", "color: yellow", "color: \"#\"",
        "color: \"#8B4513FF\"", "color: 42", "subtitle: 42", "subtitle: true", "subtitle: [a, b]", "subtitle: {a: 1}", "subtitle:",
        "subtitle: ~", "extra: {subtitle: 5}", "extra: {subtitle: [1]}", "icon: 5", "gradient: [red, blue]",
        "extra: {subtitle: \"x\"}", "state_words: {on: Open}", "extra: {big: BIG}",
    ]

    @Test(arguments: actions)
    func theLoaderRefusesFirst(line written: String) throws {
        let line = written.replacingOccurrences(of: "BIG", with: String(repeating: "x", count: 70_000))
        let text = """
        aivi:
          token_env: T
        widgets:
          - slug: w
            actions:
              - id: a
                label: A
                publish: {topic: a/b, payload: go}
                \(line)
              - id: b
                label: B
                kind: toggle
                zigbee2mqtt: b
        """
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        guard let config = result.config else {
            #expect(result.errors.allSatisfy { $0.location.line >= 4 }, "\(result.rendered())")
            return
        }
        for widget in config.widgets {
            let body = ContentRenderer.patchBody(widget: widget, states: [:])
            let parsed = try JSONValue.parse(bytes: Array(body.utf8))
            if case .failure(let problem) = SwitchboardValidator.content(ofBody: parsed) {
                Issue.record("the service refuses \(written): \(problem.message), and the loader accepted it")
            }
            #expect(body.utf8.count <= SimSettings(token: "t", widgetSlugs: ["w"]).maxBodyBytes, "the service would answer 413 for \(written)")
        }
    }

    @Test func refusedExamplesAreRefused() {
        for line in ["color: \"#8B45\"", "subtitle: [a, b]", "extra: {subtitle: [1]}",
                     "extra: {big: \"\(String(repeating: "x", count: 70_000))\"}"] {
            let result = ConfigLoader.load(text: ConfigFixtureText.withButtonLine(line), fileName: "bridge.yaml")
            #expect(result.config == nil, "\(line)")
        }
    }
}

enum ConfigFixtureText {
    static func withButtonLine(_ line: String) -> String {
        """
        aivi:
          token_env: T
        widgets:
          - slug: w
            actions:
              - id: a
                label: A
                publish: {topic: a/b, payload: go}
                \(line)
        """
    }
}
