import CoreTestSupport
import Foundation
import MQTTShell
import TestSupport

/// Devices of all four sources on a test broker, behaving as their firmwares do:
/// retained announcements (zigbee2mqtt, Tasmota, ESPHome's Home Assistant discovery),
/// Shelly gen1 and gen2 answering `announce` and `status_update`, and every device
/// answering an accepted command with its new state. Records the commands accepted.
final class DiscoverDevices: @unchecked Sendable {
    private let devices: DevicesOnBroker
    /// The German-texted Tasmota's relay (read and written on the client's thread only).
    private var terrasseState = "AUS"

    static let shellyPlus = "shellyplus1pm-441793d69718"

    init(brokerPort: Int) throws {
        let box = Box()
        devices = try DevicesOnBroker(brokerPort: brokerPort, clientId: "discover-devices-\(brokerPort)", subscriptions: [
            "zigbee2mqtt/hall_switch/set", "cmnd/huzzah_1/POWER", "cmnd/terrasse/POWER", "cmnd/terrasse/State", "garagedoor1/light/garage_esp_status_led/command",
            "shellies/command", "shellies/shelly1/relay/0/command", "\(Self.shellyPlus)/command", "\(Self.shellyPlus)/command/switch:0",
        ]) { topic, payload in box.devices?.handle(topic, payload) }
        box.devices = self
        publishAnnouncements()
        try devices.waitUntilReady()
    }

    final class Box: @unchecked Sendable { weak var devices: DiscoverDevices? }

    private func publishAnnouncements() {
        publish("zigbee2mqtt/bridge/info", #"{"version":"1.17.1","commit":"unknown"}"#)
        publish("zigbee2mqtt/bridge/devices", DiscoveryFixtures.zigbee2mqttDevices)
        publish("zigbee2mqtt/hall_switch", #"{"state_l1":"OFF","state_l2":"OFF","linkquality":120}"#)
        publish("zigbee2mqtt/hall_switch/availability", #"{"state":"online"}"#)
        publish("tasmota/discovery/A4CF12B3C4D5/config", DiscoveryFixtures.tasmotaSingleRelay)
        publish("tele/huzzah_1/LWT", "Online")
        publish("stat/huzzah_1/POWER", "OFF")
        publish("tasmota/discovery/A4CF12B3C4D6/config", DiscoveryFixtures.tasmotaGermanStateTexts)
        publish("tele/terrasse/LWT", "Online")
        publish("stat/terrasse/POWER", "AUS")
        publish("homeassistant/light/garagedoor1/garage_esp_status_led/config", DiscoveryFixtures.esphomeJSONLight)
        publish("homeassistant/sensor/garagedoor1/garage_temperature/config", DiscoveryFixtures.esphomeSensor)
        publish("homeassistant/binary_sensor/0x00158d000205d552/carbon_monoxide/config", DiscoveryFixtures.zigbee2mqttHomeAssistantCopy)
        publish("garagedoor1/status", "online")
        publish("garagedoor1/light/garage_esp_status_led/state", #"{"color_mode":"onoff","state":"OFF","color":{}}"#)
        publish("shellies/shelly1/online", "true")
        publish("shellies/shelly1/relay/0", "off")
        publish("\(Self.shellyPlus)/online", "true")
    }

    func handle(_ topic: String, _ payload: String) {
        switch topic {
        case "zigbee2mqtt/hall_switch/set":
            guard let field = payload.firstMatch(of: /"(state_l[12])":"(ON|OFF)"/) else { return }
            accept(topic, payload)
            publish("zigbee2mqtt/hall_switch", #"{"\#(field.1)":"\#(field.2)","linkquality":120}"#, retain: false)
        case "cmnd/huzzah_1/POWER":
            guard payload == "ON" || payload == "OFF" else { return }  // an empty payload is a query
            accept(topic, payload)
            publish("stat/huzzah_1/RESULT", #"{"POWER":"\#(payload)"}"#, retain: false)
            publish("stat/huzzah_1/POWER", payload, retain: false)
        case "cmnd/terrasse/POWER":
            // StateText1/2 AUS/AN are reported, never parsed as a command (GetStateNumber): any
            // other payload than ON/OFF only makes the device report its state, as an empty one does.
            if payload == "ON" || payload == "OFF" {
                accept(topic, payload)
                terrasseState = payload == "ON" ? "AN" : "AUS"
            }
            publish("stat/terrasse/RESULT", #"{"POWER":"\#(terrasseState)"}"#, retain: false)
            publish("stat/terrasse/POWER", terrasseState, retain: false)
        case "cmnd/terrasse/State":
            // The answer to State (the bridge's query): the whole state on RESULT, in its StateText.
            publish("stat/terrasse/RESULT", #"{"Uptime":"0T00:10:11","UptimeSec":611,"POWER":"\#(terrasseState)"}"#, retain: false)
        case "garagedoor1/light/garage_esp_status_led/command":
            guard let state = payload.firstMatch(of: /"state":"(ON|OFF)"/) else { return }
            accept(topic, payload)
            publish("garagedoor1/light/garage_esp_status_led/state", #"{"color_mode":"onoff","state":"\#(state.1)","color":{}}"#)
        case "shellies/command" where payload == "announce":
            publish("shellies/announce", DiscoveryFixtures.shellyGen1Announce, retain: false)
            publish("shellies/shelly1/announce", DiscoveryFixtures.shellyGen1Announce, retain: false)
            publish("shellies/announce", DiscoveryFixtures.shellyPlusAnnounce, retain: false)
            publish("\(Self.shellyPlus)/announce", DiscoveryFixtures.shellyPlusAnnounce, retain: false)
        case "\(Self.shellyPlus)/command" where payload == "status_update":
            publish("\(Self.shellyPlus)/status/switch:0", DiscoveryFixtures.shellyPlusSwitchStatus)
        case "shellies/shelly1/relay/0/command":
            guard payload == "on" || payload == "off" else { return }
            accept(topic, payload)
            publish("shellies/shelly1/relay/0", payload)
        case "\(Self.shellyPlus)/command/switch:0":
            guard payload == "on" || payload == "off" else { return }
            accept(topic, payload)
            publish("\(Self.shellyPlus)/status/switch:0", #"{"id":0,"source":"MQTT","output":\#(payload == "on"),"apower":0}"#)
        default: return
        }
    }

    private func accept(_ topic: String, _ payload: String) { devices.accept(topic, payload) }

    func acceptedCommands(on topic: String) -> [String] { devices.acceptedCommands(on: topic) }

    func publish(_ topic: String, _ payload: String, retain: Bool = true) { devices.publish(topic, payload, retain: retain) }

    func stop() { devices.stop() }
}
