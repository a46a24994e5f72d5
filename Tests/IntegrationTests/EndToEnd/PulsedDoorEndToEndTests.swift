import AiviSim
import BridgeCore
import Foundation
import Testing
import TestSupport

/// Issue 39 §4 against the release binary, a real mosquitto and the simulator:
/// the README's pulse example (a relay pulsed like the wall button, and a
/// zigbee2mqtt contact sensor, `contact: true` closed). Closing, the sensor
/// says open until the door is down; the bridge publishes nothing showing it
/// open between the press and the sensor's closed.
@Suite("A pulsed door end to end (real binary)", .serialized)
struct PulsedDoorEndToEndTests {
    static let actions = """
      - id: pulsed
        label: Old door
        pulse: {topic: test/relay/POWER, payload: "ON"}
        state_topic: test/contact
        state_field: contact
        on_value: "false"
        off_value: "true"
        travel_time_ms: 6000
    """

    /// The door's `on` in each PATCH the service received after `sequence`.
    static func doorOnAfter(_ sequence: Int, _ world: EndToEndHarness) -> [Bool] {
        world.simulator.history(slug: EndToEndHarness.widget).filter { $0.sequence > sequence }
            .compactMap { record in record.tiles.first { $0.id == "pulsed" }?.isOn }
    }

    @Test("closing: no update shows the door open between the press and the sensor's closed, 4 s later (confirm timeout 1.5 s)")
    func aClosingPulsedDoorNeverFlipsBackToOpen() throws {
        let world = try EndToEndHarness.with(actions: Self.actions, states: [("test/contact", #"{"contact":false}"#)])
        defer { world.stopAll() }
        let recorder = try MosquittoQoSRecorder(port: world.broker.port, topics: ["test/relay/POWER"], directory: world.directory)
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("pulsed") == true }, "\(world.log)")
        // The start holds a pulsed door for its travel time (a pulse before a restart may still move it).
        #expect(world.waitForLog("its travel time since the start has passed", timeoutSeconds: 30), "\(world.log)")
        let before = world.simulator.history(slug: EndToEndHarness.widget).last?.sequence ?? 0
        _ = try world.press("pulsed")
        #expect(waitUntil(timeoutSeconds: 10) { recorder.records.count == 1 }, "\(world.log)")
        let pulsedAt = Date()
        // Past the confirm timeout the door is still travelling: the bridge waits for its sensor.
        #expect(world.waitForLog("pulsed; waiting up to its travel time (6000 ms) for its sensor"), "\(world.log)")
        #expect(world.tile("pulsed")?.state == .turningOff, "\(String(describing: world.tile("pulsed")))")
        // The sensor repeats open while the door comes down, then says closed 4 s after the pulse.
        world.devices.publish("test/contact", #"{"contact":false,"linkquality":90}"#, retain: true)
        #expect(waitUntil(timeoutSeconds: 10) { Date().timeIntervalSince(pulsedAt) >= 4 })
        #expect(Self.doorOnAfter(before, world).isEmpty, "published while the door travelled: \(Self.doorOnAfter(before, world))")
        world.devices.publish("test/contact", #"{"contact":true}"#, retain: true)
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("pulsed")?.state == .off }, "\(world.log)")
        #expect(Self.doorOnAfter(before, world) == [false], "every update after the press: \(Self.doorOnAfter(before, world))")
        #expect(world.log.contains("confirmed by the device after"), "\(world.log)")
        #expect(!world.log.contains("no confirmation from the device"), "\(world.log)")
    }

    @Test("a door still open at the end of its travel time is published open then, with the reason")
    func aDoorStillOpenAtTheEndOfItsTravelTimeIsPublishedOpen() throws {
        let world = try EndToEndHarness.with(actions: Self.actions, states: [("test/contact", #"{"contact":false}"#)])
        defer { world.stopAll() }
        #expect(world.waitForLog("its travel time since the start has passed", timeoutSeconds: 30), "\(world.log)")
        let before = world.simulator.history(slug: EndToEndHarness.widget).last?.sequence ?? 0
        _ = try world.press("pulsed")
        let pressedAt = Date()
        #expect(world.waitForLog("not closed at the end of its travel time (6000 ms)", timeoutSeconds: 15), "\(world.log)")
        #expect(Date().timeIntervalSince(pressedAt) >= 5.5, "published before the end of its travel time")
        #expect(waitUntil(timeoutSeconds: 10) { Self.doorOnAfter(before, world) == [true] }, "\(Self.doorOnAfter(before, world))")
        #expect(world.tile("pulsed")?.state == .on, "\(String(describing: world.tile("pulsed")))")
    }
}
