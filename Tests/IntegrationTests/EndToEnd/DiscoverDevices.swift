import Foundation
import MQTTShell
import TestSupport

/// Devices of all four sources on a test broker, behaving as their firmwares do:
/// retained announcements (zigbee2mqtt, Tasmota, ESPHome's Home Assistant discovery),
/// Shelly gen1 and gen2 answering `announce` and `status_update`, and every device
/// answering an accepted command with its new state. Records the commands accepted.
final class DiscoverDevices: @unchecked Sendable {
    let client: MQTTClient
    /// (topic, payload) of every command a device accepted.
    let accepted = Recorder<(topic: String, payload: String)>()
    private let ready = Recorder<String>()
    /// The German-texted Tasmota's relay (read and written on the client's thread only).
    private var terrasseState = "AUS"

    static let shellyPlus = "shellyplus1pm-441793d69718"

    init(brokerPort: Int) throws {
        let box = Box()
        client = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: brokerPort, clientId: "discover-devices-\(brokerPort)")) { event in
            box.devices?.handle(event)
        }
        box.devices = self
        try client.setSubscriptions([
            "zigbee2mqtt/hall_switch/set", "cmnd/huzzah_1/POWER", "cmnd/terrasse/POWER", "cmnd/terrasse/State", "garagedoor1/light/garage_esp_status_led/command",
            "shellies/command", "shellies/shelly1/relay/0/command", "\(Self.shellyPlus)/command", "\(Self.shellyPlus)/command/switch:0",
            "test/ready",
        ])
        try client.start()
        guard waitUntil(timeoutSeconds: 10, { client.isConnected }) else { throw TestSupportError("devices did not connect") }
        publishAnnouncements()
        publish("test/ready", "1", retain: false)
        guard waitUntil(timeoutSeconds: 10, { !ready.values.isEmpty }) else { throw TestSupportError("announcements not stored") }
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

    func handle(_ event: MQTTEvent) {
        guard case .message(let message) = event else { return }
        let payload = String(decoding: message.payload, as: UTF8.self)
        switch message.topic {
        case "test/ready": ready.append(payload)
        case "zigbee2mqtt/hall_switch/set":
            guard let field = payload.firstMatch(of: /"(state_l[12])":"(ON|OFF)"/) else { return }
            accept(message.topic, payload)
            publish("zigbee2mqtt/hall_switch", #"{"\#(field.1)":"\#(field.2)","linkquality":120}"#, retain: false)
        case "cmnd/huzzah_1/POWER":
            guard payload == "ON" || payload == "OFF" else { return }  // an empty payload is a query
            accept(message.topic, payload)
            publish("stat/huzzah_1/RESULT", #"{"POWER":"\#(payload)"}"#, retain: false)
            publish("stat/huzzah_1/POWER", payload, retain: false)
        case "cmnd/terrasse/POWER":
            // StateText1/2 AUS/AN are reported, never parsed as a command (GetStateNumber): any
            // other payload than ON/OFF only makes the device report its state, as an empty one does.
            if payload == "ON" || payload == "OFF" {
                accept(message.topic, payload)
                terrasseState = payload == "ON" ? "AN" : "AUS"
            }
            publish("stat/terrasse/RESULT", #"{"POWER":"\#(terrasseState)"}"#, retain: false)
            publish("stat/terrasse/POWER", terrasseState, retain: false)
        case "cmnd/terrasse/State":
            // The answer to State (the bridge's query): the whole state on RESULT, in its StateText.
            publish("stat/terrasse/RESULT", #"{"Uptime":"0T00:10:11","UptimeSec":611,"POWER":"\#(terrasseState)"}"#, retain: false)
        case "garagedoor1/light/garage_esp_status_led/command":
            guard let state = payload.firstMatch(of: /"state":"(ON|OFF)"/) else { return }
            accept(message.topic, payload)
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
            accept(message.topic, payload)
            publish("shellies/shelly1/relay/0", payload)
        case "\(Self.shellyPlus)/command/switch:0":
            guard payload == "on" || payload == "off" else { return }
            accept(message.topic, payload)
            publish("\(Self.shellyPlus)/status/switch:0", #"{"id":0,"source":"MQTT","output":\#(payload == "on"),"apower":0}"#)
        default: return
        }
    }

    private func accept(_ topic: String, _ payload: String) { accepted.append((topic, payload)) }

    func acceptedCommands(on topic: String) -> [String] {
        accepted.values.filter { $0.topic == topic }.map(\.payload)
    }

    func publish(_ topic: String, _ payload: String, retain: Bool = true) {
        try? client.publish(topic: topic, payload: Array(payload.utf8), qos: .atLeastOnce, retain: retain)
    }

    func stop() { client.stop() }
}
