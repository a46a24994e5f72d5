import Testing
@testable import BridgeCore

/// Issue 39 §1: a state query must never move anything. Every preset's query,
/// with the firmware source that shows the firmware only reports on it.
@Suite("The state query audit: every preset asks without moving anything")
struct StateQueryAuditTests {
    struct Audit: Sendable, CustomStringConvertible {
        var preset: DevicePreset
        var name: String
        /// The query topic and payload, nil when the preset sends none.
        var query: (topic: String, payload: String)?
        /// Where the firmware shows it only reports.
        var source: String
        var description: String { preset.rawValue }
    }

    static let zigbee2mqttGet = "Koenkk/zigbee2mqtt lib/extension/publish.ts: a `/get` topic calls each converter's convertGet, "
        + "which reads attributes (readAttributes) and sets nothing"
    static let tasmotaState = "arendst/Tasmota tasmota/support_command.ino CmndState: MqttShowState, the relays' POWERn and the light; "
        + "no payload, no change"
    static let tasmotaStatus10 = "arendst/Tasmota tasmota/support_command.ino CmndStatus payload 10: MqttShowSensor (the shutter "
        + "driver's FUNC_JSON_APPEND, xdrv_27_shutter.ino) on stat/T/STATUS10; reports only, in every version"
    static let shellyGen1Update = "shelly-api-docs.shelly.cloud gen1 \"MQTT\": shellies/<id>/command `update` \"publish the "
        + "current state\" (also `announce`); moves no relay or roller"
    static let shellyGen2StatusUpdate = "shelly-api-docs.shelly.cloud gen2 General/Notifications and MQTT: <id>/command "
        + "`status_update` publishes every component's status on <id>/status/<component>"
    static let esphomeRetained = "esphome/esphome esphome/components/mqtt/mqtt_component.cpp: states are published retained; "
        + "no query is sent"

    static let audits: [Audit] = [
        Audit(preset: .zigbee2mqtt, name: "lamp", query: ("zigbee2mqtt/lamp/get", #"{"state":""}"#), source: zigbee2mqttGet),
        Audit(preset: .zigbee2mqttCover, name: "blind", query: ("zigbee2mqtt/blind/get", #"{"position":""}"#), source: zigbee2mqttGet),
        Audit(preset: .zigbee2mqttLock, name: "front", query: ("zigbee2mqtt/front/get", #"{"state":""}"#), source: zigbee2mqttGet),
        Audit(preset: .tasmota, name: "plug", query: ("cmnd/plug/State", ""), source: tasmotaState),
        Audit(preset: .tasmotaShutter, name: "blinds", query: ("cmnd/blinds/Status", "10"), source: tasmotaStatus10),
        Audit(preset: .shelly, name: "s1", query: ("shellies/s1/command", "update"), source: shellyGen1Update),
        Audit(preset: .shellyLight, name: "d1", query: ("shellies/d1/command", "update"), source: shellyGen1Update),
        Audit(preset: .shellyColor, name: "c1", query: ("shellies/c1/command", "update"), source: shellyGen1Update),
        Audit(preset: .shellyWhite, name: "w1", query: ("shellies/w1/command", "update"), source: shellyGen1Update),
        Audit(preset: .shellyRoller, name: "s25", query: ("shellies/s25/command", "update"), source: shellyGen1Update),
        Audit(preset: .shellyPlus, name: "p1", query: ("p1/command", "status_update"), source: shellyGen2StatusUpdate),
        Audit(preset: .shellyPlusLight, name: "p1", query: ("p1/command", "status_update"), source: shellyGen2StatusUpdate),
        Audit(preset: .shellyPlusRGB, name: "p1", query: ("p1/command", "status_update"), source: shellyGen2StatusUpdate),
        Audit(preset: .shellyPlusRGBW, name: "p1", query: ("p1/command", "status_update"), source: shellyGen2StatusUpdate),
        Audit(preset: .shellyPlusCCT, name: "p1", query: ("p1/command", "status_update"), source: shellyGen2StatusUpdate),
        Audit(preset: .shellyPlusRGBCCT, name: "p1", query: ("p1/command", "status_update"), source: shellyGen2StatusUpdate),
        Audit(preset: .shellyPlusCover, name: "p2", query: ("p2/command", "status_update"), source: shellyGen2StatusUpdate),
        Audit(preset: .esphome, name: "node/relay", query: nil, source: esphomeRetained),
        Audit(preset: .esphomeLight, name: "node/lamp", query: nil, source: esphomeRetained),
        Audit(preset: .esphomeFan, name: "node/fan", query: nil, source: esphomeRetained),
        Audit(preset: .esphomeCover, name: "node/door", query: nil, source: esphomeRetained),
        Audit(preset: .esphomeLock, name: "node/front", query: nil, source: esphomeRetained),
    ]

    @Test func everyPresetIsAudited() {
        #expect(Set(Self.audits.map(\.preset.rawValue)) == Set(DevicePreset.allCases.map(\.rawValue)))
    }

    @Test(arguments: audits)
    func theQueryIsTheAuditedOne(_ audit: Audit) {
        let expansion = audit.preset.expand(name: audit.name, channel: .none, options: DevicePreset.Options())
        #expect(expansion.stateQuery.map { "\($0.topic) \($0.payload)" } == audit.query.map { "\($0.topic) \($0.payload)" })
        #expect(expansion.stateQuery.map { $0.retain } != true)
        // A query is never the preset's own command: whatever that command does, the query does not.
        if let query = expansion.stateQuery {
            for on in [true, false] {
                let command = expansion.command.message(on: on)
                #expect(!(command.topic == query.topic && String(decoding: command.payload, as: UTF8.self) == query.payload))
            }
        }
        #expect(!audit.source.isEmpty)
    }

    /// The 2019 shutter driver moves on an empty `ShutterPosition<n>`: no preset may ever send one.
    @Test func noPresetAsksWithAShutterPositionCommand() {
        for audit in Self.audits {
            let query = audit.preset.expand(name: audit.name, channel: .none, options: DevicePreset.Options()).stateQuery
            #expect(query.map { !$0.topic.lowercased().contains("shutterposition") } ?? true, "\(audit.preset.rawValue)")
        }
    }
}
