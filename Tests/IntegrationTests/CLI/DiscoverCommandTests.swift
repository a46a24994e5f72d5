import BridgeCore
import BridgeDaemon
import Foundation
import Testing
import TestSupport

/// The command line of `discover`: its options, `--config` reuse, and refusals before connecting.
@Suite struct DiscoverCommandTests {
    /// `discover`'s options as the one parser reads them (CommandOptionsTests has the table of every command's).
    static func arguments(_ options: [String]) throws -> DiscoverArguments {
        try CommandOptionsTests.command(["discover"] + options, as: DiscoverCommand.self).arguments
    }

    static func command(_ options: [String]) throws -> DiscoverCommand {
        try CommandOptionsTests.command(["discover"] + options, as: DiscoverCommand.self)
    }

    @Test func aConfigsMQTTSectionIsReusedAndFlagsWin() throws {
        let directory = try TemporaryDirectory(prefix: "discover-cli")
        defer { directory.remove() }
        let path = directory.file("bridge.yaml")
        try """
        aivi:
          token_file: /srv/token
        mqtt:
          host: broker.lan
          port: 1884
          username: bridge
          password_file: /srv/mqtt-password
          tls: true
        widgets:
          - slug: x
            actions:
              - id: a
                label: A
                publish: { topic: a/b, payload: c }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let arguments = try Self.arguments(["--config", path, "--port", "8883"])
        let options = try DiscoverCommand.discoveryOptions(arguments).get()
        #expect(options.mqtt.host == "broker.lan" && options.mqtt.port == 8883)
        #expect(options.mqtt.username == "bridge" && options.mqtt.passwordFile == "/srv/mqtt-password" && options.mqtt.tls != nil)
        #expect(options.tokenFile == "/srv/token")
        let text = DiscoveredConfigWriter.text(
            DiscoveryResult(toggles: [], extras: [], skipped: [], heard: HeardSources(), droppedMessages: 0), options: options)
        #expect(text.contains("  host: broker.lan\n  port: 8883\n  username: bridge\n  password_file: /srv/mqtt-password\n  tls: true\n"))
    }

    @Test func nothingAnnouncedExitsOneAndSaysHowToTurnDiscoveryOn() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try TemporaryDirectory(prefix: "discover-empty")
        defer { directory.remove() }
        let output = directory.file("bridge.yaml")
        let process = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable,
            arguments: ["discover", "--port", "\(broker.port)", "--seconds", "1", "--output", output],
            directory: directory.path, name: "discover", environment: ["PATH": "/usr/bin:/bin"])
        #expect(process.waitForExit(timeoutSeconds: 30) == 1)
        for hint in ["nothing was announced on 127.0.0.1:\(broker.port) in 1 s", "tasmota/discovery/+/config", "SetOption19 0",
                     "discovery_retain", "Generic status update over MQTT"] {
            #expect(process.stderr.contains(hint), "\(process.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// Issue 41 §2: `discover --seconds 2` to a port where nothing listens took 10 s (the
    /// connection's own limit) to say so; the error now comes within its seconds.
    @Test func anUnreachableBrokerIsReportedWithinTheSecondsAskedFor() throws {
        let directory = try TemporaryDirectory(prefix: "discover-unreachable")
        defer { directory.remove() }
        let started = Date()
        // Port 1 on loopback: nothing listens.
        let process = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable, arguments: ["discover", "--port", "1", "--seconds", "2"],
            directory: directory.path, name: "discover", environment: ["PATH": "/usr/bin:/bin"])
        #expect(process.waitForExit(timeoutSeconds: 30) == 1)
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 2 + 3, "took \(elapsed) s for --seconds 2 (the process's start included)")
        #expect(process.stderr.contains("cannot connect to the broker at 127.0.0.1:1: "), "\(process.stderr)")
    }

    @Test func aBadWidgetSlugAndAnExistingOutputAreRefusedBeforeConnecting() throws {
        let bad = try Self.arguments(["--widget", "living room"])
        #expect(throws: DiscoverFailure.self) { try DiscoverCommand.discoveryOptions(bad).get() }
        let directory = try TemporaryDirectory(prefix: "discover-cli")
        defer { directory.remove() }
        let existing = directory.file("bridge.yaml")
        try "keep me\n".write(toFile: existing, atomically: true, encoding: .utf8)
        // Port 1 on loopback: nothing listens; the refusal must come before any connection attempt.
        let status = try Self.command(["--port", "1", "--output", existing]).run(environment: [:])
        #expect(status == 2)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me\n")
    }

    /// Issue 19 item 15: these options were written as given, and `check` refused the
    /// file. They are refused before listening or writing anything, naming the option.
    @Test(arguments: [
        (["--token-file", ""], "discover: --token-file: 'token_file' in 'aivi' must not be empty"),
        (["--state-dir", ""], "discover: --state-dir: 'state_dir' at the top level must not be empty"),
        (["--api", "not a url"], "discover: --api: 'api' in 'aivi' must be a URL starting with https://"),
        (["--password-file", "/p"], "discover: --password-file: 'password_file' in 'mqtt' needs 'username'"),
    ])
    func anOptionCheckWouldRefuseIsRefusedBeforeAnythingIsWritten(_ option: [String], _ expected: String) throws {
        let arguments = try Self.arguments(["--port", "1"] + option)
        switch DiscoverCommand.discoveryOptions(arguments) {
        case .success: Issue.record("\(option) was accepted")
        case .failure(let failure): #expect(failure.description.hasPrefix(expected), "\(failure.description)")
        }
        let directory = try TemporaryDirectory(prefix: "discover-option")
        defer { directory.remove() }
        let output = directory.file("bridge.yaml")
        // Port 1 on loopback: nothing listens; the refusal comes before any connection attempt.
        let status = try Self.command(["--port", "1", "--output", output] + option).run(environment: [:])
        #expect(status == 2)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func theDefaultOptionsAndAGoodAPIPass() throws {
        let arguments = try Self.arguments(["--api", "http://127.0.0.1:8080", "--state-dir", "/var/lib/x"])
        #expect(DiscoveredSettingsCheck.problems(try DiscoverCommand.discoveryOptions(arguments).get()).isEmpty)
        #expect(DiscoveredSettingsCheck.problems(DiscoveryOptions()).isEmpty)
    }
}
