import Testing
@testable import BridgeCore

/// Issue 20 section 1: what a cover's and a lock's `on` means, on custom
/// actions written with explicit keys (Home Assistant's MQTT cover and lock
/// words: homeassistant/components/mqtt/cover.py `DEFAULT_STATE_*`, lock.py
/// `DEFAULT_STATE_*`; the same words ESPHome's mqtt_cover.cpp / mqtt_lock.cpp
/// publish, in the case each uses).
@Suite("Covers and locks: what on means")
struct CoverSemanticsTests {
    static let cover = "device: cover\nstate_topic: gate/state\ncommand_topic: gate/set\nposition_topic: gate/position"
    static let lock = "device: lock\nstate_topic: door/state\ncommand_topic: door/set\nallow_unlock: true"

    struct Reading: Sendable, CustomStringConvertible {
        var action: String
        var messages: [(String, String)]
        var isOn: Bool?
        var shownOn: Bool
        var description: String { messages.map { "\($0.0) \($0.1)" }.joined(separator: ", ") }
    }

    static let readings: [Reading] = [
        Reading(action: cover, messages: [("gate/state", "open")], isOn: true, shownOn: true),
        Reading(action: cover, messages: [("gate/state", "closed")], isOn: false, shownOn: false),
        Reading(action: cover, messages: [("gate/state", "closed"), ("gate/state", "opening")], isOn: true, shownOn: true),
        Reading(action: cover, messages: [("gate/state", "closing")], isOn: true, shownOn: true),
        Reading(action: cover, messages: [("gate/state", "stopped")], isOn: true, shownOn: true),
        Reading(action: cover, messages: [("gate/position", "47")], isOn: true, shownOn: true),
        Reading(action: cover, messages: [("gate/position", "0")], isOn: false, shownOn: false),
        // Issue 39 §3: closed only while the latest message says closed; a word the tile does not know is not closed.
        Reading(action: cover, messages: [("gate/state", "closed"), ("gate/state", "sideways")], isOn: nil, shownOn: true),
        // Never heard: a cover is not shown closed.
        Reading(action: cover, messages: [], isOn: nil, shownOn: true),
        Reading(action: lock, messages: [("door/state", "LOCKED")], isOn: true, shownOn: true),
        Reading(action: lock, messages: [("door/state", "UNLOCKED")], isOn: false, shownOn: false),
        Reading(action: lock, messages: [("door/state", "LOCKED"), ("door/state", "JAMMED")], isOn: false, shownOn: false),
        Reading(action: lock, messages: [("door/state", "LOCKED"), ("door/state", "UNLOCKING")], isOn: false, shownOn: false),
        Reading(action: lock, messages: [("door/state", "LOCKING")], isOn: false, shownOn: false),
        Reading(action: lock, messages: [], isOn: nil, shownOn: false),
        // Issue 39 §2: any other word, known or not, ends locked.
        Reading(action: lock, messages: [("door/state", "LOCKED"), ("door/state", "sideways")], isOn: nil, shownOn: false),
    ]

    @Test(arguments: readings)
    func readingsMeanWhatTheDeviceSays(_ reading: Reading) throws {
        var harness = try BridgeHarness(action: reading.action, states: [])
        for (topic, payload) in reading.messages { harness.ackAll(harness.message(topic, payload)) }
        harness.endPublishIntervals()
        #expect(harness.device.isOn == reading.isOn)
        let body = try #require(harness.bridge.renderedBody(slug: "home"))
        #expect(body.contains(reading.shownOn ? #""on":true"# : #""on":false"#), "\(body)")
    }

    @Test func anUnreachableCoverIsNotShownClosed() throws {
        var harness = try BridgeHarness(action: Self.cover + "\navailability_topic: gate/status",
                                        states: [("gate/state", "closed"), ("gate/status", "offline")])
        let body = try #require(harness.bridge.renderedBody(slug: "home"))
        #expect(body.contains(#""on":true"#))
        harness.ackAll(harness.message("gate/status", "online"))
        #expect(harness.bridge.renderedBody(slug: "home")?.contains(#""on":false"#) == true)
    }

    @Test func aJammedLockIsLoggedOnceAsAWarning() throws {
        var harness = try BridgeHarness(action: Self.lock, states: [("door/state", "LOCKED")])
        let first = harness.message("door/state", "JAMMED")
        let again = harness.message("door/state", "JAMMED")
        #expect(first.logTexts.filter { $0.0 == .warning }.map(\.1) == [
            "action 'dev' (widget home): the lock reports it is jammed; showing it unlocked",
        ])
        #expect(again.logTexts.filter { $0.0 == .warning }.isEmpty)
        _ = harness.message("door/state", "LOCKED")
        #expect(harness.message("door/state", "JAMMED").logTexts.filter { $0.0 == .warning }.count == 1)
    }

    @Test(arguments: [
        (cover, true, "OPEN"), (cover, false, "CLOSE"), (lock, true, "LOCK"), (lock, false, "UNLOCK"),
    ])
    func aPressSendsTheExplicitCommandAtQoS1NotRetained(action: String, value: Bool, payload: String) throws {
        let initial = action == Self.cover ? ("gate/state", value ? "closed" : "open") : ("door/state", value ? "UNLOCKED" : "LOCKED")
        var harness = try BridgeHarness(action: action, states: [initial])
        let sent = harness.press(value, id: "evt_1").outgoing
        #expect(sent.map { String(decoding: $0.payload, as: UTF8.self) } == [payload])
        #expect(sent.map(\.qos) == [1])
        #expect(sent.map(\.retain) == [false])
    }

    @Test func anOpenPressWhileClosingSendsOpen() throws {
        var harness = try BridgeHarness(action: Self.cover, states: [("gate/state", "closing")])
        #expect(harness.press(true, id: "evt_1").mqttPublishes.map(\.payload) == ["OPEN"])
    }

    @Test func customWordsReplaceTheDefaults() throws {
        let action = "device: cover\nstate_topic: gate/state\nstate_field: s\ncommand_topic: gate/set\n"
            + "on_value: auf\noff_value: zu\nclosing_value: schliesst\npayload_on: AUF\npayload_off: ZU"
        var harness = try BridgeHarness(action: action, states: [("gate/state", #"{"s":"zu"}"#)])
        #expect(harness.device.isOn == false)
        _ = harness.message("gate/state", #"{"s":"schliesst"}"#)
        #expect(harness.device.motion == .towardOff)
        #expect(harness.press(false, id: "evt_1").mqttPublishes.map(\.payload) == ["ZU"])
    }

    @Test(arguments: [
        ("device: lock\nstate_topic: a\ncommand_topic: b\nopening_value: x", "'opening_value' in action 'dev' only applies to 'device: cover', and this action is a lock"),
        ("device: cover\nstate_topic: a\ncommand_topic: b\nallow_unlock: true", "'allow_unlock' in action 'dev' only applies to 'device: lock', and this action is a cover"),
        ("kind: toggle\nstate_topic: a\ncommand_topic: b\ntravel_time_ms: 20000", "'travel_time_ms' in action 'dev' only applies to 'device: cover' or 'device: lock', and this action is a switch"),
        ("device: door\nstate_topic: a\ncommand_topic: b", "'device' in action 'dev' must be 'switch', 'cover' or 'lock' (it is 'door')"),
    ])
    func misplacedKeysAreRefusedOnTheirLine(action: String, message: String) {
        let (_, result) = ConfigFixture.loadAction("id: dev\nlabel: Device\n" + action)
        #expect(result.errors.map(\.message) == [message])
    }
}
