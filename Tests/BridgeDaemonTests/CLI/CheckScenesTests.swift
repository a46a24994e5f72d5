import BridgeCore
@testable import BridgeDaemon
import Foundation
import Testing
import TestSupport

/// Issue 21 section 1: `check` refuses a scene's bad target on its line with
/// the fix, and its summary says what each scene sets.
@Suite("check: scenes made of tiles")
struct CheckScenesTests {
    static func config(scene: String, directory: TemporaryDirectory) -> String {
        """
        aivi:
          token_file: \(directory.file("token"))
        state_dir: \(directory.file("state"))
        widgets:
          - slug: home
            actions:
              - id: porch
                label: Porch
                zigbee2mqtt: porch
              - id: front
                label: Front door
                esphome_lock: hall/front
              - id: all_off
                label: All off
        \(scene)
        """
    }

    static func check(_ scene: String) throws -> (CheckCommand.Report, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "check-scenes")
        try "test-token\n".write(toFile: directory.file("token"), atomically: true, encoding: .utf8)
        chmod(directory.file("token"), 0o600)
        try config(scene: scene, directory: directory).write(toFile: directory.file("bridge.yaml"), atomically: true, encoding: .utf8)
        return (CheckCommand.run(configPath: directory.file("bridge.yaml"), environment: [:]), directory)
    }

    @Test func aMisspeltTargetIsRefusedOnItsLineWithADidYouMean() throws {
        let (report, _) = try Self.check("        sets: {porh: off, front: off}")
        #expect(report.status == 1)
        #expect(report.problems.contains("bridge.yaml:15:16: error: 'sets' of action 'all_off': widget 'home' has no action 'porh' (did you mean 'porch'?)"),
                "\(report.problems)")
        #expect(report.problems.contains("bridge.yaml:15:27: error: 'sets' of action 'all_off': 'front' is a lock tile that only locks"),
                "\(report.problems)")
        #expect(report.problems.contains("        sets: {porh: off, front: off}\n               ^"))
        #expect(!report.output.contains("config ok"))
    }

    @Test func theSummarySaysWhatTheSceneSets() throws {
        let (report, _) = try Self.check("        sets: {porch: off, front: on}")
        #expect(report.status == 0, "\(report.output)")
        #expect(report.summary.contains("  all_off: button 'All off'\n    sets         porch off, front on (each through its own rules; active while all hold, then sends nothing)"),
                "\(report.summary)")
    }
}
