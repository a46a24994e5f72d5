import Testing
@testable import BridgeCore

/// Issue 21 section 4: `discover` writes an `all_off` scene of the toggles it
/// found, commented out; with its '#' removed, the file loads and the scene
/// sets every tile that reports its state to off.
@Suite("Scenes: discover's commented all_off")
struct DiscoveredSceneTests {
    /// The file with the scene's lines uncommented: its '#' removed where a YAML
    /// line follows it (`#- id`, `#  label`), its prose comments left.
    static func uncommented(_ text: String) -> String {
        var inScene = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.contains("#- id: all_off") { inScene = true } else if !line.contains("#") { inScene = false }
            guard inScene, let hash = line.firstIndex(of: "#") else { return String(line) }
            let rest = line[line.index(after: hash)...]
            guard rest.hasPrefix("-") || rest.hasPrefix("  ") else { return String(line) }
            return String(line[..<hash]) + rest
        }.joined(separator: "\n")
    }

    @Test func theCommentedSceneLoadsOnceUncommented() throws {
        let text = discoveredConfig(allSourcesMessages)
        #expect(text.contains("      #- id: all_off\n      #  label: All off\n      #  icon: power\n      #  sets:\n"), "\(text)")
        let plain = try #require(ConfigLoader.load(text: text, fileName: "bridge.yaml").config)
        #expect(!plain.widgets.flatMap(\.actions).contains { $0.isScene }, "commented out: not a tile until the owner says so")
        let loaded = ConfigLoader.load(text: Self.uncommented(text), fileName: "bridge.yaml")
        #expect(loaded.errors.isEmpty, "\(loaded.rendered())")
        let widget = try #require(loaded.config?.widgets.first)
        let scene = try #require(widget.actions.first { $0.isScene })
        let reporting = widget.actions.filter { $0.kind == .toggle && !$0.optimistic }.map(\.id)
        #expect(scene.sets.map(\.actionId) == reporting)
        #expect(scene.sets.allSatisfy { !$0.on })
        #expect(!reporting.isEmpty)
    }
}
