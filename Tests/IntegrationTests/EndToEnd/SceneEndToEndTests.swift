import AiviSim
import BridgeCore
import Foundation
import Testing
import TestSupport

/// Issue 21 against the real binary, a real mosquitto and the simulator: scenes
/// made of the widget's own tiles (a zigbee2mqtt porch light that echoes its
/// commands, a fountain on plain topics that nobody commands).
@Suite("Scenes end to end (real binary)", .serialized)
struct SceneEndToEndTests {
    static let actions = """
      - id: porch
        label: Porch light
        zigbee2mqtt: porch
      - id: fountain
        label: Fountain
        kind: toggle
        state_topic: test/fountain/state
        command_topic: test/fountain/set
      - id: all_off
        label: All off
        sets: {porch: off, fountain: off}
      - id: evening
        label: Evening
        sets: {porch: on, fountain: off}
    """

    func startWorld() throws -> EndToEndHarness {
        try EndToEndHarness.with(actions: Self.actions, states: [("zigbee2mqtt/porch", #"{"state":"ON"}"#), ("test/fountain/state", "OFF")])
    }

    /// Each published content's tiles: `on` of toggles, `active` of buttons.
    static func published(_ world: EndToEndHarness) -> [[String: Bool]] {
        world.simulator.history(slug: EndToEndHarness.widget).map { record in
            Dictionary(uniqueKeysWithValues: record.tiles.map { ($0.id, $0.kind == .toggle ? $0.isOn : $0.isActive) })
        }
    }

    /// The one invariant of every content: a scene is published active only with its tiles in its states.
    static func truthful(_ content: [String: Bool]) -> Bool {
        (content["all_off"] != true || (content["porch"] == false && content["fountain"] == false))
            && (content["evening"] != true || (content["porch"] == true && content["fountain"] == false))
    }

    @Test("All off sends one command and turns active; Evening turns the porch on; the fountain at the wall ends it in one PATCH")
    func scenesOfTiles() throws {
        let world = try startWorld()
        let recorder = try MosquittoQoSRecorder(port: world.broker.port, topics: ["zigbee2mqtt/porch/set", "test/fountain/set"],
                                                directory: world.directory)
        #expect(waitUntil(timeoutSeconds: 10) { Self.published(world).last?["evening"] == true }, "\(world.log)")
        #expect(Self.published(world).last?["all_off"] == false)

        // All off: the porch is on, the fountain off: exactly one command, then active with the porch off.
        let before = world.simulator.history(slug: EndToEndHarness.widget).count
        _ = try world.press("all_off")
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("all_off")?.state == .active }, "\(world.log)")
        #expect(recorder.records == [MosquittoQoSRecorder.Record(qos: 1, topic: "zigbee2mqtt/porch/set", payload: #"{"state":"OFF"}"#)],
                "\(recorder.records)")
        let afterAllOff = Array(Self.published(world).dropFirst(before))
        #expect(afterAllOff.first?["all_off"] == true, "the first update after the press is the answer, active: \(afterAllOff)")
        #expect(afterAllOff.first?["porch"] == false)
        #expect(afterAllOff.first?["evening"] == false)

        // Evening: the porch on, Evening active and All off not, in the same update.
        _ = try world.press("evening")
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("evening")?.state == .active }, "\(world.log)")
        #expect(world.tile("all_off")?.state == .idle)
        #expect(recorder.records.map(\.payload) == [#"{"state":"OFF"}"#, #"{"state":"ON"}"#], "\(recorder.records)")

        // The fountain switched on at the wall: the same update shows it on and Evening inactive.
        let beforeWall = Self.published(world).count
        world.devices.publish("test/fountain/state", "ON", retain: true)
        #expect(waitUntil(timeoutSeconds: 10) { Self.published(world).last?["fountain"] == true }, "\(world.log)")
        let wall = Array(Self.published(world).dropFirst(beforeWall))
        #expect(wall.count == 1, "\(wall)")
        #expect(wall.first?["evening"] == false)
        #expect(wall.first?["all_off"] == false)
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("evening")?.state == .idle })

        // Evening again: only the fountain is off its state, so only it is commanded (it never answers:
        // the press is answered at the window with the truth, Evening idle).
        _ = try world.press("evening")
        #expect(waitUntil(timeoutSeconds: 10) { recorder.records.contains { $0.topic == "test/fountain/set" } }, "\(world.log)")
        #expect(waitUntil(timeoutSeconds: 10) {
            world.log.contains("living-room/evening: not active within") || world.log.contains("living-room/evening: its tiles ended their wait")
        }, "\(world.log)")
        #expect(recorder.records.map(\.payload) == [#"{"state":"OFF"}"#, #"{"state":"ON"}"#, "OFF"], "\(recorder.records)")
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("evening")?.state == .idle })
        for content in Self.published(world) { #expect(Self.truthful(content), "\(content)") }
        world.stopAll()
    }
}
