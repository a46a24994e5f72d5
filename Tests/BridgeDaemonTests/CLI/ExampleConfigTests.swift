import BridgeCore
@testable import BridgeDaemon
import Foundation
import Testing
import TestSupport

/// Every example config in `config/` loads and passes `check`; the ways a
/// hand-edited file goes wrong on a board (CRLF, BOM, tabs) work or say exactly what.
@Suite("Example configs and the check/render commands")
final class ExampleConfigTests {
    /// The directories this test made, removed with it.
    private var directories: [TemporaryDirectory] = []

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let examples = ["bridge.example.yaml", "demo.yaml", "zigbee2mqtt.yaml", "tasmota.yaml",
                           "shelly.yaml", "shelly-plus.yaml", "esphome.yaml"]

    static func path(_ name: String) -> String { packageRoot.appendingPathComponent("config/\(name)").path }

    func credentialsDirectory() throws -> String {
        let made = try TemporaryDirectory(prefix: "sb-cred")
        directories.append(made)
        let directory = made.path
        try "test-token\n".write(toFile: directory + "/aivi-token", atomically: true, encoding: .utf8)
        return directory
    }

    @Test(arguments: examples)
    func exampleLoadsWithoutDiagnostics(name: String) throws {
        let text = try String(contentsOfFile: Self.path(name), encoding: .utf8)
        let result = ConfigLoader.load(text: text, fileName: name)
        #expect(result.config != nil)
        #expect(result.diagnostics.isEmpty, "\(result.rendered())")
    }

    /// A copy of an example whose `state_dir` is a private directory, so that
    /// `check` reads nothing of this machine but the example itself.
    static func hermeticCopy(_ name: String, directory: String, replacing: [(String, String)] = []) throws -> String {
        var text = try String(contentsOfFile: Self.path(name), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("state_dir:") }
        text = lines.joined(separator: "\n") + "\nstate_dir: \(directory)/state\n"
        for (old, new) in replacing { text = text.replacingOccurrences(of: old, with: new) }
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: examples)
    func examplePassesCheck(name: String) throws {
        let credentials = try credentialsDirectory()
        let path = try Self.hermeticCopy(name, directory: credentials)
        let result = CheckCommand.run(configPath: path, environment: ["CREDENTIALS_DIRECTORY": credentials])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.summary.contains("config ok:"))
        #expect(!result.problems.contains("error"), "\(result.problems)")
    }

    @Test func everyPresetHasAnExample() throws {
        let texts = try Self.examples.map { try String(contentsOfFile: Self.path($0), encoding: .utf8) }.joined()
        for preset in DevicePreset.allCases { #expect(texts.contains("\(preset.rawValue): "), "no example uses \(preset.rawValue)") }
    }

    @Test func windowsLineEndingsAndABOMWork() throws {
        let text = try String(contentsOfFile: Self.path("tasmota.yaml"), encoding: .utf8)
        let windows = "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n")
        let result = ConfigLoader.load(text: windows, fileName: "tasmota.yaml")
        #expect(result.config != nil, "\(result.rendered())")
        #expect(result.config == ConfigLoader.load(text: text, fileName: "tasmota.yaml").config)
    }

    @Test func tabsForIndentationAreNamed() throws {
        let text = try String(contentsOfFile: Self.path("shelly.yaml"), encoding: .utf8)
        let tabbed = text.replacingOccurrences(of: "\n  - slug", with: "\n\t- slug")
        let result = ConfigLoader.load(text: tabbed, fileName: "shelly.yaml")
        #expect(result.config == nil)
        #expect(result.rendered().lowercased().contains("tab"))
        #expect(result.rendered().contains("shelly.yaml:"))
    }

    /// Hermetic: the token file is one this test knows is missing (an
    /// installed board has /etc/switchboard-bridge/aivi-token).
    @Test func checkReportsAMissingTokenAndFails() throws {
        let directory = try credentialsDirectory()
        let path = try Self.hermeticCopy("esphome.yaml", directory: directory,
                                         replacing: [("/etc/switchboard-bridge/aivi-token", directory + "/missing-token")])
        let result = CheckCommand.run(configPath: path, environment: [:])
        #expect(result.status == 1)
        #expect(result.problems.contains("API token cannot be read"))
        #expect(result.problems.contains("No such file or directory"))
        #expect(!result.output.contains("config ok"))
    }

    @Test func checkReportsEveryConfigErrorWithFileLineAndColumn() throws {
        let directory = try credentialsDirectory()
        let path = directory + "/bad.yaml"
        try """
        aivi:
          token_env: X
        widgets:
          - slug: w
            actions:
              - id: a
                label: A
                kind: toggle
                comand_topic: x/set
              - id: a
                label: B
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = CheckCommand.run(configPath: path, environment: [:])
        #expect(result.status == 1)
        #expect(result.output.contains("bad.yaml:9:9: error: unknown key 'comand_topic'"))
        #expect(result.output.contains("did you mean 'command_topic'?"))
        #expect(result.output.contains("bad.yaml:10:"))
    }

    @Test func renderPrintsTheContentWithGivenStates() throws {
        let result = RenderCommand.run(configPath: Self.path("bridge.example.yaml"), stateArguments: ["porch=on", "living-room/fan=off"])
        #expect(result.status == 0)
        #expect(result.output.contains("PATCH /widget/living-room"))
        #expect(result.output.contains(#"{"id":"porch","label":"Porch light","icon":"lightbulb.fill","kind":"toggle","on":true"#))
        #expect(RenderCommand.run(configPath: Self.path("bridge.example.yaml"), stateArguments: ["nope=on"]).status == 2)
    }

    /// Issue 41 §1: man 1 said toggles render off without --state; a cover renders open
    /// (a tile never says closed before the door does). The page now says both.
    @Test func renderWithoutStatesShowsACoverOpenAsTheManPageSays() throws {
        let path = NSTemporaryDirectory() + "sb-render-\(UUID().uuidString).yaml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        aivi:
          token_env: AIVI_TOKEN
        widgets:
          - slug: home
            actions:
              - id: porch
                label: Porch
                zigbee2mqtt: porch
              - id: garage
                label: Garage
                zigbee2mqtt_cover: garage
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = RenderCommand.run(configPath: path, stateArguments: [])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(#""id":"porch","label":"Porch","kind":"toggle","on":false"#), "\(result.output)")
        #expect(result.output.contains(#""id":"garage","label":"Garage","kind":"toggle","on":true"#), "\(result.output)")
        let page = try String(contentsOf: Self.packageRoot.appendingPathComponent("packaging/man/switchboard-bridge.1"), encoding: .utf8)
        #expect(!page.contains("Toggles are off unless given with"))
        #expect(page.contains("except a cover or door, which is shown open"))
    }
}
