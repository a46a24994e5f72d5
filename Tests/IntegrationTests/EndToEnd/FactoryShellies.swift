import CoreTestSupport
import Foundation
import MQTTShell
import TestSupport

/// Shellies on their factory MQTT settings, as their firmwares behave: nothing retained
/// by a gen1 (its `retain` is off), so its relay is heard only when it changes or when
/// asked with `update`. Each device answers an accepted command with its new state, and
/// records it.
///
/// A gen1 Shelly 1 and an RGBW2 in color mode; a gen2+ CCT light (a Pro RGBWW PM in its
/// `cctx2` profile) with `status_ntf` off and no announce script: it retains `<id>/online`,
/// answers RPC on `<id>/rpc` on `<src>/rpc`, and reports changes only as NotifyStatus on
/// `<id>/events/rpc` (`rpc_ntf`, on by default).
///
/// Sources: Shelly gen1 API docs "MQTT" (shelly-api-docs.shelly.cloud/gen1/#mqtt-support:
/// `shellies/command` takes `announce` and `update`; `shellies/<id>/relay/<n>` `on`/`off`,
/// `relay/<n>/command`; RGBW2 `color/<n>`, `color/<n>/status`, `color/<n>/set`); gen2 docs
/// "RPC Channels" (MQTT), "Notifications", ComponentsAndServices/CCT (`CCT.Set`).
final class FactoryShellies: @unchecked Sendable {
    private let devices: DevicesOnBroker
    /// Every `shellies/command` request heard.
    let requests = Recorder<String>()

    static let gen1 = "shelly1"
    static let rgbw2 = DiscoveryFixtures.shellyRGBW2Id
    static let cct = DiscoveryFixtures.shellyCCTPrefix

    init(brokerPort: Int) throws {
        let box = Box()
        devices = try DevicesOnBroker(brokerPort: brokerPort, clientId: "factory-shellies-\(brokerPort)", subscriptions: [
            "shellies/command", "shellies/\(Self.gen1)/command", "shellies/\(Self.gen1)/relay/0/command",
            "shellies/\(Self.rgbw2)/command", "shellies/\(Self.rgbw2)/color/0/set", "\(Self.cct)/rpc",
        ]) { topic, payload in box.shellies?.handle(topic, payload) }
        box.shellies = self
        // The gen2+ retains its online, as every gen2+ does at connect.
        devices.publish("\(Self.cct)/online", "true", retain: true)
        try devices.waitUntilReady()
    }

    final class Box: @unchecked Sendable { weak var shellies: FactoryShellies? }

    func handle(_ topic: String, _ payload: String) {
        switch topic {
        case "shellies/command":
            requests.append(payload)
            if payload == "announce" {
                publish("shellies/announce", DiscoveryFixtures.shellyGen1Announce)
                publish("shellies/\(Self.gen1)/announce", DiscoveryFixtures.shellyGen1Announce)
                publish("shellies/announce", DiscoveryFixtures.shellyRGBW2Announce)
                publish("shellies/\(Self.rgbw2)/announce", DiscoveryFixtures.shellyRGBW2Announce)
            } else if payload == "update" {
                publishGen1Status()
                publishRGBW2Status()
            }
        case "shellies/\(Self.gen1)/command" where payload == "update":
            publishGen1Status()
        case "shellies/\(Self.rgbw2)/command" where payload == "update":
            publishRGBW2Status()
        case "shellies/\(Self.rgbw2)/color/0/set":
            guard let turn = payload.firstMatch(of: /"turn":"(on|off)"/) else { return }
            accept(topic, payload)
            rgbw2Color = String(turn.1)
            publishRGBW2Status()
        case "\(Self.cct)/rpc":
            answerRPC(payload)
        case "shellies/\(Self.gen1)/relay/0/command":
            guard payload == "on" || payload == "off" else { return }
            accept(topic, payload)
            gen1Relay = payload
            publishGen1Status()
        default: return
        }
    }

    /// The gen1 relay (read and written on the client's thread only).
    private var gen1Relay = "off"

    private func publishGen1Status() {
        publish("shellies/\(Self.gen1)/online", "true")
        publish("shellies/\(Self.gen1)/relay/0", gen1Relay)
        publish("shellies/\(Self.gen1)/relay/0/power", "0.00")
    }

    /// The RGBW2's color output and the CCT's (read and written on the client's thread only).
    private var rgbw2Color = "off"
    private var cctOn = false

    private func publishRGBW2Status() {
        publish("shellies/\(Self.rgbw2)/color/0", rgbw2Color)
        publish("shellies/\(Self.rgbw2)/color/0/status",
                DiscoveryFixtures.shellyRGBW2ColorStatusOff.replacing(#""ison":false"#, with: "\"ison\":\(rgbw2Color == "on")"))
    }

    /// A request frame `{"id":..,"src":..,"method":..,"params":..}`: answered on `<src>/rpc`.
    private func answerRPC(_ payload: String) {
        guard let id = payload.firstMatch(of: /"id":(\d+)/)?.1, let src = payload.firstMatch(of: /"src":"([^"]+)"/)?.1,
              let method = payload.firstMatch(of: /"method":"([^"]+)"/)?.1 else { return }
        let reply: String
        switch method {
        case "Shelly.GetDeviceInfo": reply = DiscoveryFixtures.shellyCCTDeviceInfoReply
        case "Shelly.GetStatus":
            reply = DiscoveryFixtures.shellyCCTStatusReply.replacing(#""output":false"#, with: "\"output\":\(cctOn)")
        case "CCT.Set":
            guard let on = payload.firstMatch(of: /"params":\{"id":0,"on":(true|false)\}/)?.1 else { return }
            accept(message: payload)
            let was = cctOn
            cctOn = on == "true"
            reply = #"{"id":ID,"src":"\#(Self.cct)","dst":"SRC","result":{"was_on":\#(was)}}"#
            publish("\(Self.cct)/events/rpc", #"{"src":"\#(Self.cct)","dst":"\#(Self.cct)/events","method":"NotifyStatus","params":{"ts":1700000000.0,"cct:0":{"id":0,"output":\#(cctOn)}}}"#)
        default: return
        }
        publish("\(src)/rpc", reply.replacing(#""id":ID"#, with: "\"id\":\(id)").replacing("switchboard-bridge-discover", with: String(src))
            .replacing("SRC", with: String(src)))
    }

    private func accept(message payload: String) { devices.accept("\(Self.cct)/rpc", payload) }

    private func accept(_ topic: String, _ payload: String) { devices.accept(topic, payload) }

    func acceptedCommands(on topic: String) -> [String] { devices.acceptedCommands(on: topic) }

    /// Never retained: the factory setting.
    func publish(_ topic: String, _ payload: String) { devices.publish(topic, payload, retain: false) }

    func stop() { devices.stop() }
}
