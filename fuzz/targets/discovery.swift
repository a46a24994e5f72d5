@testable import BridgeCore

/// `switchboard-bridge discover`: announcements heard on the broker (zigbee2mqtt,
/// Tasmota, Home Assistant discovery as ESPHome and zigbee2mqtt send it, Shelly
/// gen1 and gen2/3) translated into a config. Beyond "no crash": the config
/// discover writes (it writes one when something can be switched) is always one
/// `check` accepts (no error; a homeowner runs it as it is), whatever the
/// devices announced; no lock written can unlock; every cover and lock heard is
/// written as a cover or a lock (issue 43).
///
/// Input: messages separated by 0xFF (never in UTF-8); each is one byte that picks
/// a topic of the kinds discover listens to, then the payload. The topic's
/// `{}` is filled with the first bytes of the payload up to a 0xFE, if any
/// (less what MQTT forbids in a published topic: NUL and the wildcards).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(start, count)
    var session = DiscoverySession(options: DiscoveryOptions())
    for message in input.all.split(separator: 0xFF, omittingEmptySubsequences: true).prefix(16) {
        let template = discoveryTopics[Int(message[message.startIndex]) % discoveryTopics.count]
        var payload = Array(message.dropFirst())
        var name = "dev"
        if let cut = payload.firstIndex(of: 0xFE) {
            // What MQTT allows in the topic of a PUBLISH: no NUL, no wildcard.
            name = String(decoding: payload[..<cut].filter { ![0, UInt8(ascii: "+"), UInt8(ascii: "#")].contains($0) }, as: UTF8.self)
            payload = Array(payload[(cut + 1)...])
        }
        let topic = template.replacingAll("{}", with: name)
        _ = session.receive(DiscoveryMessage(topic: topic, payload: payload))
    }
    let result = session.result()
    // With nothing to switch, discover writes no file (it says what it heard instead).
    guard !result.toggles.isEmpty else { return 0 }
    let options = DiscoveryOptions()
    let text = DiscoveredConfigWriter.text(result, options: options)
    let loaded = ConfigLoader.load(text: text, fileName: "discovered.yaml")
    fuzzCheck(loaded.config != nil && !loaded.diagnostics.contains { $0.severity == .error },
                 "discover wrote a config that check refuses:\n\(loaded.rendered())\n---\n\(text)")
    // Covers and locks (issue 43): no lock is written able to unlock, and none of
    // them becomes another kind of tile (a cover or lock drawn as a switch, or back).
    let actions = (loaded.config?.widgets ?? []).flatMap(\.actions)
    fuzzCheck(!actions.contains { $0.device == .lock && $0.allowUnlock },
              "discover wrote a lock that can unlock:\n\(text)")
    let heardLocks = result.toggles.filter { $0.kind == .lock }.count
    let heardCovers = result.toggles.filter { $0.kind == .garageDoor || $0.kind == .blinds }.count
    let writtenLocks = actions.filter { $0.device == .lock }.count
    let writtenCovers = actions.filter { $0.device == .cover }.count
    fuzzCheck(heardLocks == writtenLocks && heardCovers == writtenCovers,
              "discover heard \(heardLocks) locks and \(heardCovers) covers, wrote \(writtenLocks) and \(writtenCovers):\n\(text)")
    return 0
}

/// The topics discover listens to, one per kind of announcement.
let discoveryTopics = [
    "zigbee2mqtt/bridge/devices", "zigbee2mqtt/bridge/groups", "zigbee2mqtt/bridge/info", "{}/bridge/devices",
    "tasmota/discovery/{}/config",
    "homeassistant/light/{}/light/config", "homeassistant/switch/{}/relay/config", "homeassistant/sensor/{}/t/config",
    "homeassistant/binary_sensor/{}/contact/config", "homeassistant/button/{}/restart/config",
    "shellies/announce", "shellies/{}/announce", "{}/announce",
    "shellies/{}/relay/0", "shellies/{}/light/0", "{}/status/switch:0", "{}/status/light:0",
    "homeassistant/device/{}/config",
    // Covers and locks (issue 43): Home Assistant cover and lock, Shelly gen2/3 covers and gen1 rollers.
    "homeassistant/cover/{}/cover/config", "homeassistant/lock/{}/lock/config", "{}/status/cover:0", "shellies/{}/roller/0",
    "shellies/{}/roller/0/pos",
]
