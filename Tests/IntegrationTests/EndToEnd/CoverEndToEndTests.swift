import AiviSim
import BridgeCore
import Foundation
import Testing
import TestSupport

/// Issue 20 against the real binary and a real broker: covers, locks and a
/// pulsed door. Payload sources: `Tests/BridgeCoreTests/Devices/Covers/CoverPayloads.swift`.
@Suite("Covers and locks end to end (real binary)", .serialized)
struct CoverEndToEndTests {
    /// Action id, preset lines, the retained state it starts in, the press, the exact command.
    static let presets: [(id: String, yaml: String, state: (String, String), press: Bool, topic: String, payload: String)] = [
        ("z2m_cover", "zigbee2mqtt_cover: garage", ("zigbee2mqtt/garage", #"{"position":100,"state":"OPEN"}"#), false,
         "zigbee2mqtt/garage/set", #"{"state":"CLOSE"}"#),
        ("z2m_lock", "zigbee2mqtt_lock: front", ("zigbee2mqtt/front", #"{"lock_state":"unlocked","state":"UNLOCK"}"#), true,
         "zigbee2mqtt/front/set", #"{"state":"LOCK"}"#),
        ("esp_cover", "esphome_cover: garage/door", ("garage/cover/door/state", "open"), false, "garage/cover/door/command", "CLOSE"),
        ("esp_lock", "esphome_lock: hall/front", ("hall/lock/front/state", "UNLOCKED"), true, "hall/lock/front/command", "LOCK"),
        ("plus_cover", "shelly_plus_cover: p2", ("p2/status/cover:0", #"{"id":0,"state":"open","pos_control":true,"current_pos":100}"#), false,
         "p2/command/cover:0", "close"),
        ("roller", "shelly_roller: s25", ("shellies/s25/roller/0/pos", "100"), false, "shellies/s25/roller/0/command", "close"),
        ("shutter", "tasmota_shutter: blinds", ("stat/blinds/RESULT", #"{"Shutter1":{"Position":100,"Direction":0,"Target":100,"Tilt":0}}"#), false,
         "cmnd/blinds/ShutterClose1", ""),
    ]

    static let extraActions = """
      - id: gate
        label: Gate
        device: cover
        state_topic: test/gate/state
        command_topic: test/gate/set
        travel_time_ms: 12000
      - id: pulsed
        label: Old door
        pulse: {topic: test/relay/POWER, payload: "ON"}
        state_topic: test/contact
        state_field: contact
        on_value: "false"
        off_value: "true"
        travel_time_ms: 8000
      - id: lockonly
        label: Back door
        device: lock
        state_topic: test/back/state
        command_topic: test/back/set
    """

    static let extraStates: [(String, String)] = [
        ("test/gate/state", "open"), ("test/contact", #"{"contact":true}"#), ("test/back/state", "LOCKED"),
    ]

    func startWorld() throws -> EndToEndHarness {
        try EndToEndHarness.with(actions: WidgetActionsConfig.presetActions(Self.presets.map { ($0.id, $0.yaml) }) + "\n" + Self.extraActions,
                                 states: Self.presets.map(\.state) + Self.extraStates)
    }

    @Test("each preset's close or lock command, exactly: QoS 1, not retained")
    func presetCommands() throws {
        let world = try startWorld()
        let recorder = try MosquittoQoSRecorder(port: world.broker.port, topics: Self.presets.map(\.topic), directory: world.directory)
        for preset in Self.presets {
            #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn(preset.id) == !preset.press }, "\(preset.id): \(world.log)")
            _ = try world.press(preset.id)
            #expect(waitUntil(timeoutSeconds: 10) { recorder.records.contains { $0.topic == preset.topic } }, "no command for \(preset.id)")
            #expect(recorder.records.filter { $0.topic == preset.topic }
                    == [MosquittoQoSRecorder.Record(qos: 1, topic: preset.topic, payload: preset.payload)], "\(preset.id)")
        }
        for preset in Self.presets {
            let retained = try MosquittoCLI.retainedPayload(port: world.broker.port, topic: preset.topic, timeoutSeconds: 1, directory: world.directory)
            #expect(retained == nil, "\(preset.topic) was retained")
        }
        world.stopAll()
    }

    @Test("a closing door is not answered with the old state at the confirm timeout; a still door is answered before 15 s")
    func travel() throws {
        let world = try startWorld()
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("gate") == true })
        // A door that never moves: the true state (open) well before the phone's 15 s.
        let started = Date()
        _ = try world.press("gate")
        #expect(world.waitForLog("no confirmation from the device"), "\(world.log)")
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("gate")?.state == .on })
        #expect(Date().timeIntervalSince(started) < 15)
        // Now it reports closing: past the confirm timeout (1.5 s) it is still Turning off, then Off the moment it closes.
        world.devices.publish("test/gate/state", "closing", retain: true)
        _ = try world.press("gate")
        #expect(world.waitForLog("still moving toward closed"), "\(world.log)")
        #expect(world.tile("gate")?.state == .turningOff, "\(String(describing: world.tile("gate")))")
        world.devices.publish("test/gate/state", "closed", retain: true)
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("gate")?.state == .off }, "\(world.log)")
        world.stopAll()
    }

    @Test("no pulse for a travel time after the start; two open presses inside the travel time make one pulse; an open press on an open door makes none")
    func pulses() throws {
        let world = try startWorld()
        let recorder = try MosquittoQoSRecorder(port: world.broker.port, topics: ["test/relay/POWER"], directory: world.directory)
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("pulsed") == false })
        // Just started: a pulse the run before sent may still be moving the door (a restart forgets it).
        _ = try world.press("pulsed")
        #expect(world.waitForLog("a pulse sent before the restart may still be moving the door"), "\(world.log)")
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("pulsed")?.state == .off }, "answered with the truth")
        #expect(world.waitForLog("its travel time since the start has passed", timeoutSeconds: 30), "\(world.log)")
        #expect(recorder.records.isEmpty, "\(recorder.records)")
        _ = try world.press("pulsed")
        #expect(waitUntil(timeoutSeconds: 10) { recorder.records.count == 1 })
        #expect(recorder.records == [MosquittoQoSRecorder.Record(qos: 0, topic: "test/relay/POWER", payload: "ON")])
        _ = try world.press("pulsed", phone: "phone-b")   // phone-b shows the door closed too: a second open press
        #expect(world.waitForLog("not pulsed again"), "\(world.log)")
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("pulsed")?.state == .off }, "answered with the truth")
        // The door opened: an open press on an open door sends nothing and is answered at once.
        world.devices.publish("test/contact", #"{"contact":false}"#, retain: true)
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("pulsed") == true })
        world.simulator.injectPress(widget: EndToEndHarness.widget, action: "pulsed", kind: .toggle, value: true, ageMs: 100)
        #expect(world.waitForLog("already open; answering at once"), "\(world.log)")
        #expect(recorder.records.count == 1, "\(recorder.records)")
        let retained = try MosquittoCLI.retainedPayload(port: world.broker.port, topic: "test/relay/POWER", timeoutSeconds: 1, directory: world.directory)
        #expect(retained == nil)
        world.stopAll()
    }

    @Test("an unlock without allow_unlock sends nothing and is answered")
    func lockOnly() throws {
        let world = try startWorld()
        let recorder = try MosquittoQoSRecorder(port: world.broker.port, topics: ["test/back/set"], directory: world.directory)
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("lockonly")?.state == .on })
        _ = try world.press("lockonly")
        #expect(world.waitForLog("unlock refused: this lock tile only locks"), "\(world.log)")
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("lockonly")?.state == .on })
        #expect(recorder.records.isEmpty)
        world.stopAll()
    }
}
