import Testing
import CoreTestSupport
@testable import BridgeCore

/// Issue 39 §5: `discover`'s commented "All off" scene listed `front_door: off`
/// for a lock-only lock (refused by `check` once uncommented, and read as "All
/// off unlocks the front door"). A lock is set on (locked); the scene, once
/// uncommented, passes `check`.
@Suite("discover: the starter All off scene")
struct StarterSceneTests {
    /// The written config with the scene's lines uncommented.
    static func uncommented(_ text: String) -> String {
        var inScene = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("      #- id: all_off") { inScene = true }
            guard inScene else { return String(line) }
            guard line.hasPrefix("      #") else {
                inScene = false
                return String(line)
            }
            return "      " + line.dropFirst(7)
        }.joined(separator: "\n")
    }

    @Test func locksAreSetOnAndTheSceneIsAcceptedOnceUncommented() throws {
        let text = CoverDiscoveryTests.text
        let scene = text.components(separatedBy: "#- id: all_off").dropFirst().first ?? ""
        #expect(!scene.isEmpty, "no starter scene in\n\(text)")
        for lock in ["front_door", "front_lock", "shed"] {
            #expect(scene.contains("#    \(lock): on"), "\(lock) in\n\(scene)")
            #expect(!scene.contains("#    \(lock): off"), "All off would unlock \(lock):\n\(scene)")
        }
        #expect(scene.contains("#    garage_door: off"), "a cover is closed by All off:\n\(scene)")
        let result = ConfigLoader.load(text: Self.uncommented(text), fileName: "bridge.yaml")
        #expect(result.errors.isEmpty, "\(result.rendered())\n\(Self.uncommented(text))")
        let config = try #require(result.config)
        let allOff = try #require(config.widgets.flatMap(\.actions).first { $0.id == "all_off" })
        #expect(allOff.isScene)
    }
}
