import Testing
@testable import BridgeCore

/// Issue 39 §5 and issue 41 §3: `watch` says why a press would do nothing (an
/// offline device, a refused unlock, a pulsed door held for its travel time or
/// whose sensor has not said), in its table and its JSON.
@Suite("watch: why a press would do nothing")
struct WatchPressNoteTests {
    static let yaml = ConfigFixture.withAction("id: plug\nlabel: Plug\ntasmota: plug")
        + "      - id: front\n        label: Front door\n        esphome_lock: hall/front\n"
        + "      - id: garage\n        label: Garage\n        pulse: {topic: cmnd/relay/POWER, payload: \"ON\"}\n"
        + "        state_topic: zigbee2mqtt/garage_contact\n        state_field: contact\n"
        + "        on_value: \"false\"\n        off_value: \"true\"\n        travel_time_ms: 20000\n"

    static func session() throws -> WatchSession {
        WatchSession(config: try #require(ConfigLoader.load(text: yaml, fileName: "bridge.yaml").config))
    }

    func row(_ session: WatchSession, _ action: String) -> String {
        WatchFormat.humanSummary(session.records).first { $0.hasPrefix("home/\(action) ") } ?? ""
    }

    @Test func anOfflineDeviceDoesNotReadLikeOff() throws {
        var session = try Self.session()
        _ = session.message(topic: "stat/plug/POWER", payload: Array("OFF".utf8), elapsedMs: 1)
        #expect(session.records[0].pressNote == nil, "a reachable plug: a press just works")
        _ = session.message(topic: "tele/plug/LWT", payload: Array("Offline".utf8), elapsedMs: 2)
        #expect(row(session, "plug").contains("unavailable"))
        #expect(row(session, "plug").hasSuffix("a press sends nothing now: the device is offline (answered with its last state)"))
    }

    @Test func aLockOnlyLockSaysAnUnlockIsRefused() throws {
        var session = try Self.session()
        _ = session.message(topic: "hall/lock/front/state", payload: Array("LOCKED".utf8), elapsedMs: 1)
        #expect(row(session, "front").contains("locked"))
        #expect(row(session, "front").contains("an unlock press is refused: this tile only locks (allow_unlock: true lets it)"))
    }

    @Test func aPulsedDoorSaysItsSensorAndItsTravelTime() throws {
        var session = try Self.session()
        #expect(session.records.first { $0.key.actionId == "garage" }?.pressNote == "not pulsed until the door's sensor reports")
        _ = session.message(topic: "zigbee2mqtt/garage_contact", payload: Array(#"{"contact":true}"#.utf8), elapsedMs: 1)
        let record = try #require(session.records.first { $0.key.actionId == "garage" })
        #expect(record.stateWord == "closed")
        #expect(record.pressNote?.contains("pulsed at most once per travel time (20 s): a press or a scene inside it does nothing") == true)
        #expect(WatchFormat.jsonSummary(record).contains(#""press":"pulsed at most once per travel time (20 s)"#))
    }
}
