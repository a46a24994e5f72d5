@testable import BridgeCore
import CoreTestSupport

/// Runs a discovery over `messages` (topic, payload) as the shell would feed them.
func discover(_ messages: [(String, String)], options: DiscoveryOptions = DiscoveryOptions()) -> DiscoveryResult {
    var session = DiscoverySession(options: options)
    for (topic, payload) in messages { _ = session.receive(DiscoveryMessage(topic: topic, text: payload)) }
    return session.result()
}

/// The written config for `messages`.
func discoveredConfig(_ messages: [(String, String)], options: DiscoveryOptions = DiscoveryOptions()) -> String {
    DiscoveredConfigWriter.text(discover(messages, options: options), options: options)
}

/// Every announcement of the fixtures, from all four sources.
let allSourcesMessages: [(String, String)] = [
    ("zigbee2mqtt/bridge/info", #"{"version":"1.17.1","commit":"unknown"}"#),
    ("zigbee2mqtt/bridge/devices", DiscoveryFixtures.zigbee2mqttDevices),
    ("tasmota/discovery/A4CF12B3C4D5/config", DiscoveryFixtures.tasmotaSingleRelay),
    ("homeassistant/light/garagedoor1/garage_esp_status_led/config", DiscoveryFixtures.esphomeJSONLight),
    ("homeassistant/switch/garagedoor1/garage_relay/config", DiscoveryFixtures.esphomeSwitch),
    ("homeassistant/sensor/garagedoor1/garage_temperature/config", DiscoveryFixtures.esphomeSensor),
    ("homeassistant/binary_sensor/0x00158d000205d552/carbon_monoxide/config", DiscoveryFixtures.zigbee2mqttHomeAssistantCopy),
    ("shellies/announce", DiscoveryFixtures.shellyGen1Announce),
    ("shellies/shelly1/announce", DiscoveryFixtures.shellyGen1Announce),
    ("shellies/shelly1/relay/0", "off"),
    ("shellies/announce", DiscoveryFixtures.shellyPlusAnnounce),
    ("shellyplus1pm-441793d69718/announce", DiscoveryFixtures.shellyPlusAnnounce),
    ("shellyplus1pm-441793d69718/status/switch:0", DiscoveryFixtures.shellyPlusSwitchStatus),
]
