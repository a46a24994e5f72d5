import Testing
@testable import BridgeCore

/// Issue 21 section 1: `sets:` and what `check` refuses, each on its line.
@Suite("Scenes: the config")
struct SceneConfigTests {
    /// The scene fixture with `scene` (YAML lines of one action) added at the end.
    static func load(_ scene: String) -> ConfigLoadResult {
        let lines = scene.split(separator: "\n").enumerated().map { ($0 == 0 ? "      - " : "        ") + $1 }
        return ConfigLoader.load(text: SceneFixture.text + lines.joined(separator: "\n") + "\n", fileName: "bridge.yaml")
    }

    /// The line the scene's first line lands on.
    static var sceneLine: Int { SceneFixture.text.split(separator: "\n", omittingEmptySubsequences: false).count }

    @Test func aSceneNeedsNoPublishAndReadsItsTargets() throws {
        let result = Self.load("id: s\nlabel: S\nsets: {porch: off, garage: ON, front: on}")
        #expect(result.diagnostics.isEmpty, "\(result.rendered())")
        let scene = try #require(result.config?.widgets[0].actions.last)
        #expect(scene.kind == .button)
        #expect(scene.publishes.isEmpty)
        #expect(scene.sets.map(\.actionId) == ["porch", "garage", "front"])
        #expect(scene.sets.map(\.on) == [false, true, true])
        #expect(scene.hasHighlight)
    }

    struct Refusal: Sendable, CustomStringConvertible {
        var scene: String
        var message: String
        /// Line after the scene's first, and column.
        var line: Int
        var column: Int
        var description: String { message }
    }

    @Test(arguments: [
        Refusal(scene: "id: s\nlabel: S\nsets: {porch: off, fountian: off}",
                message: "'sets' of action 's': widget 'home' has no action 'fountian' (did you mean 'fountain'?)", line: 2, column: 20),
        Refusal(scene: "id: s\nlabel: S\nsets:\n  porch: off\n  movie: on",
                message: "'sets' of action 's': 'movie' is a button; a scene sets toggles only", line: 4, column: 3),
        Refusal(scene: "id: s\nlabel: S\nsets: {s: on}", message: "'sets' of action 's': a scene cannot set itself", line: 2, column: 8),
        Refusal(scene: "id: s\nlabel: S\nsets: {porch: dim}",
                message: "'porch' in 'sets' in action 's' must be on or off, not 'dim'", line: 2, column: 15),
        Refusal(scene: "id: s\nlabel: S\nsets: {garage: closed}",
                message: "must be on or off, not 'closed' (write 'off': for a cover off is closed", line: 2, column: 16),
        Refusal(scene: "id: s\nlabel: S\nsets: {porch: true}",
                message: "must be on or off, not 'true' (write 'on'", line: 2, column: 15),
        Refusal(scene: "id: s\nlabel: S\nsets: {front: off}",
                message: "'front' is a lock tile that only locks, so a scene cannot unlock it: set it 'on' (locked), or add 'allow_unlock: true' to 'front'",
                line: 2, column: 8),
        Refusal(scene: "id: s\nlabel: S\nsets: [porch, fountain]", message: "'sets' in action 's' must map tile ids to on or off", line: 2, column: 7),
        Refusal(scene: "id: s\nlabel: S\nsets: {}", message: "'sets' in action 's' must list at least one tile", line: 2, column: 7),
        Refusal(scene: "id: s\nlabel: S\nsets:", message: "'sets' in action 's' has no tiles", line: 2, column: 1),
        Refusal(scene: "id: s\nlabel: S\nkind: toggle\ncommand_topic: x\nstate_topic: y\nsets: {porch: off}",
                message: "'sets' in action 's' only applies to buttons", line: 5, column: 1),
        Refusal(scene: "id: s\nlabel: S\nsets: {door: off}\nrepeat_safe: true",
                message: "'repeat_safe: true' in action 's': its tile(s) 'door' must never run twice for one press", line: 3, column: 1),
    ])
    func checkRefusesOnTheRightLine(refusal: Refusal) {
        let result = Self.load(refusal.scene)
        let matching = result.errors.filter { $0.message.contains(refusal.message) }
        #expect(matching.count == 1, "\(result.rendered())")
        #expect(matching.first.map { "\($0.location)" } == "\(Self.sceneLine + refusal.line):\(refusal.column + 8)", "\(result.rendered())")
        #expect(result.config == nil)
    }

    @Test func anOptimisticTargetIsRefused() {
        let text = SceneFixture.text + """
              - id: lamp
                label: Lamp
                kind: toggle
                command_topic: lamp/set
                optimistic: true
              - id: s
                label: S
                sets: {lamp: on}

        """
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(result.errors.count == 1)
        #expect(result.errors.first?.message.contains("'lamp' is optimistic: its device reports nothing, so the scene's highlight could not tell the truth") == true)
    }

    @Test func aTargetOfAnotherWidgetIsUnknownHere() {
        let text = SceneFixture.text + "  - slug: garden\n    actions:\n      - id: s\n        label: S\n        sets: {porch: off}\n"
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(result.errors.map(\.message) == ["'sets' of action 's': widget 'garden' has no action 'porch'"])
    }
}
