import Testing
import CoreTestSupport
@testable import BridgeCore

@Suite struct ShellyDiscoveryTests {
    @Test func discoveryAsksShelliesToAnnounceAndGen2ForItsStatus() {
        var session = DiscoverySession(options: DiscoveryOptions())
        #expect(session.initialRequests == [DiscoveryRequest(topic: "shellies/command", payload: "announce"),
                                            DiscoveryRequest(topic: "shellies/command", payload: "update")])
        #expect(session.receive(DiscoveryMessage(topic: "shellies/announce", text: DiscoveryFixtures.shellyGen1Announce)).isEmpty)
        let requests = session.receive(DiscoveryMessage(topic: "shellyplus1pm-441793d69718/announce", text: DiscoveryFixtures.shellyPlusAnnounce))
        #expect(requests == [DiscoveryRequest(topic: "shellyplus1pm-441793d69718/command", payload: "status_update"),
                             DiscoveryRequest(topic: "shellyplus1pm-441793d69718/rpc",
                                              payload: #"{"id":1,"src":"switchboard-bridge-discover","method":"Shelly.GetStatus"}"#)])
        // Asked once per device, however often it announces.
        #expect(session.receive(DiscoveryMessage(topic: "shellies/announce", text: DiscoveryFixtures.shellyPlusAnnounce)).isEmpty)
    }

    @Test func gen1RelaysAndGen2SwitchesArePresets() {
        let text = discoveredConfig([
            ("shellies/announce", DiscoveryFixtures.shellyGen1Announce),
            ("shellies/shelly1/relay/0", "off"),
            ("shellies/announce", DiscoveryFixtures.shellyPlusAnnounce),
            ("shellyplus1pm-441793d69718/status/switch:0", DiscoveryFixtures.shellyPlusSwitchStatus),
        ])
        #expect(text.contains("        shelly: shelly1\n"))
        #expect(text.contains("        shelly_plus: shellyplus1pm-441793d69718\n"))
        #expect(text.contains("# Shelly SNSW-001P16EU (gen2, shellyplus1pm-441793d69718)"))
    }

    /// Issue 22 item 8: a gen1 on its factory settings (retain off) publishes its relay only
    /// when it changes, or when asked with `update`; discover asks, and when a device still
    /// says nothing the reason is not "its state is not retained".
    @Test func aGen1DeviceIsAskedForAnUpdateAndOneThatStaysSilentIsSaidSo() {
        let session = DiscoverySession(options: DiscoveryOptions())
        #expect(session.initialRequests.contains(DiscoveryRequest(topic: "shellies/command", payload: "update")))
        let silent = discover([("shellies/shelly1/announce", DiscoveryFixtures.shellyGen1Announce)])
        #expect(silent.toggles.isEmpty)
        let reason = silent.skipped.first { $0.what.contains("shelly1") }?.reason ?? ""
        #expect(reason.contains("though asked with 'update' on shellies/command") && !reason.contains("retained"), "\(reason)")
        // The answer to `update` (not retained) makes the tile.
        let answered = discover([("shellies/shelly1/announce", DiscoveryFixtures.shellyGen1Announce), ("shellies/shelly1/relay/0", "off")])
        #expect(answered.toggles.map(\.wiring.command.topic) == ["shellies/shelly1/relay/0/command"])
    }

    /// Issue 22 item 9: an RGBW2 in color mode and a gen2+ CCT are lights with their own
    /// presets; a gen2+ on its factory settings, found by its retained `<id>/online` alone,
    /// is asked over RPC and becomes a tile.
    @Test func anRGBW2InColorModeIsAShellyColorLight() {
        let result = discover([("shellies/\(DiscoveryFixtures.shellyRGBW2Id)/announce", DiscoveryFixtures.shellyRGBW2Announce),
                               ("shellies/\(DiscoveryFixtures.shellyRGBW2Id)/color/0", "off"),
                               ("shellies/\(DiscoveryFixtures.shellyRGBW2Id)/color/0/status", DiscoveryFixtures.shellyRGBW2ColorStatusOff)])
        #expect(result.toggles.map(\.label) == ["Shelly RGBW2 C4D5E6"])
        #expect(result.toggles.first?.kind == .light)
        let text = DiscoveredConfigWriter.text(result, options: DiscoveryOptions())
        #expect(text.contains("        shelly_color: \(DiscoveryFixtures.shellyRGBW2Id)\n"), "\(text)")
        #expect(ConfigLoader.load(text: text, fileName: "b.yaml").config?.widgets.first?.actions.first?.command?.topic
                == "shellies/\(DiscoveryFixtures.shellyRGBW2Id)/color/0/set")
    }

    @Test(arguments: ["rgb", "rgbw", "cct", "rgbcct"])
    func aGen2LightComponentIsHeardAndNotSaidToNeedStatusUpdates(component: String) {
        let prefix = "shellyplusrgbwpm-abcdef123456"
        let result = discover([("\(prefix)/announce", DiscoveryFixtures.shellyPlusAnnounce.replacingAll("shellyplus1pm-441793d69718", with: prefix)),
                               ("\(prefix)/status/\(component):0", #"{"id":0,"source":"init","output":true,"brightness":50}"#)])
        #expect(result.toggles.count == 1)
        #expect(!result.skipped.contains { $0.reason.contains("Generic status update") }, "\(result.skipped)")
        let text = DiscoveredConfigWriter.text(result, options: DiscoveryOptions())
        #expect(text.contains("        shelly_plus_\(component): \(prefix)\n"), "\(text)")
        let method = component.uppercased() + ".Set"
        #expect(ConfigLoader.load(text: text, fileName: "b.yaml").config?.widgets.first?.actions.first?.command?.payloadOn.contains(method) == true)
    }

    @Test func aGen2FoundOnlyByItsRetainedOnlineIsAskedOverRPC() throws {
        var session = DiscoverySession(options: DiscoveryOptions())
        #expect(session.subscriptions.contains("+/online") && session.subscriptions.contains("switchboard-bridge-discover/rpc"))
        let prefix = DiscoveryFixtures.shellyCCTPrefix
        let requests = session.receive(DiscoveryMessage(topic: "\(prefix)/online", text: "true"))
        #expect(requests.map(\.topic) == ["\(prefix)/rpc", "\(prefix)/rpc"])
        #expect(requests.map(\.payload) == [#"{"id":1,"src":"switchboard-bridge-discover","method":"Shelly.GetDeviceInfo"}"#,
                                             #"{"id":2,"src":"switchboard-bridge-discover","method":"Shelly.GetStatus"}"#])
        // Asked once; a one-level prefix unlike a Shelly id, or `false`, asks nothing.
        #expect(session.receive(DiscoveryMessage(topic: "\(prefix)/online", text: "true")).isEmpty)
        #expect(session.receive(DiscoveryMessage(topic: "garagedoor1/online", text: "true")).isEmpty)
        #expect(session.receive(DiscoveryMessage(topic: "shellyplus1-aabbccddeeff/online", text: "false")).isEmpty)
        let silent = session.result()
        #expect(silent.skipped.contains { $0.what == "Shelly \(prefix)" && $0.reason.contains("enable_rpc") }, "\(silent.skipped)")

        _ = session.receive(DiscoveryMessage(topic: "switchboard-bridge-discover/rpc",
                                             text: DiscoveryFixtures.shellyCCTDeviceInfoReply.replacingAll("\"id\":ID", with: "\"id\":1")))
        _ = session.receive(DiscoveryMessage(topic: "switchboard-bridge-discover/rpc",
                                             text: DiscoveryFixtures.shellyCCTStatusReply.replacingAll("\"id\":ID", with: "\"id\":2")))
        let result = session.result()
        #expect(result.toggles.map(\.label) == ["Shelly ProRGBWWPM C4D5E6"])
        #expect(result.toggles.first?.origin.contains("\(prefix)/rpc (Shelly.GetDeviceInfo)") == true)
        #expect(!result.skipped.contains { $0.what.contains(prefix) }, "\(result.skipped)")
        let text = DiscoveredConfigWriter.text(result, options: DiscoveryOptions())
        #expect(text.contains("        shelly_plus_cct: \(prefix)\n"), "\(text)")
        #expect(ConfigLoader.load(text: text, fileName: "b.yaml").errors.isEmpty)
    }

    @Test func aGen2HeardOnlineThenAnnouncedIsStillAskedForAStatusUpdate() {
        var session = DiscoverySession(options: DiscoveryOptions())
        let prefix = "shellyplus1pm-441793d69718"
        #expect(session.receive(DiscoveryMessage(topic: "\(prefix)/online", text: "true")).count == 2)
        #expect(session.receive(DiscoveryMessage(topic: "\(prefix)/announce", text: DiscoveryFixtures.shellyPlusAnnounce))
                == [DiscoveryRequest(topic: "\(prefix)/command", payload: "status_update")])
        #expect(session.receive(DiscoveryMessage(topic: "shellies/announce", text: DiscoveryFixtures.shellyPlusAnnounce)).isEmpty)
    }

    @Test func anAnswerToNoRequestAndAStatusWithoutLightsAreSaidSo() {
        var session = DiscoverySession(options: DiscoveryOptions())
        // A reply nobody asked for is ignored.
        _ = session.receive(DiscoveryMessage(topic: "switchboard-bridge-discover/rpc",
                                             text: DiscoveryFixtures.shellyCCTDeviceInfoReply.replacingAll("\"id\":ID", with: "\"id\":7")))
        #expect(session.result().isEmpty)
        let result = discover([("shellyplus1pm-441793d69718/announce", DiscoveryFixtures.shellyPlusAnnounce),
                               ("shellyplus1pm-441793d69718/status/input:0", #"{"id":0,"state":false}"#),
                               ("shellyplus1pm-441793d69718/status/sys", #"{"mac":"441793D69718"}"#)])
        #expect(result.toggles.isEmpty)
        #expect(result.skipped.first?.reason.hasPrefix("its status lists no switch, light or cover (input:0, sys)") == true, "\(result.skipped)")
    }

    @Test func aDeviceNamedByItsOwnerOrItsCustomIdKeepsIt() {
        let named = discover([("shellyplus1pm-441793d69718/announce",
                               DiscoveryFixtures.shellyPlusAnnounce.replacingAll(#""name":null"#, with: #""name":"Porch""#)),
                              ("shellyplus1pm-441793d69718/status/switch:0", DiscoveryFixtures.shellyPlusSwitchStatus)])
        #expect(named.toggles.map(\.label) == ["Porch"])
        let unnamed = discover([("shellyplus1pm-441793d69718/announce", DiscoveryFixtures.shellyPlusAnnounce),
                                ("shellyplus1pm-441793d69718/status/switch:0", DiscoveryFixtures.shellyPlusSwitchStatus)])
        #expect(unnamed.toggles.map(\.label) == ["Shelly Plus1PM D69718"])
        // gen1 `shelly1` is an MQTT id its owner chose: it stays.
        let custom = discover([("shellies/shelly1/announce", DiscoveryFixtures.shellyGen1Announce), ("shellies/shelly1/relay/0", "off")])
        #expect(custom.toggles.map(\.label) == ["shelly1"])
    }

    @Test func aGen2DeviceWithoutStatusIsListedWithWhatToTurnOn() {
        let result = discover([("shellyplus1pm-441793d69718/announce", DiscoveryFixtures.shellyPlusAnnounce)])
        #expect(result.toggles.isEmpty)
        #expect(result.skipped.first?.reason.contains("'RPC over MQTT' (enable_rpc) or 'Generic status update over MQTT'") == true)
    }

    @Test func aSecondRelayAndAGen2PrefixOfItsOwnAreFollowed() {
        let result = discover([
            ("home/plus/announce", DiscoveryFixtures.shellyPlusAnnounce),
            ("home/plus/status/switch:0", DiscoveryFixtures.shellyPlusSwitchStatus),
            ("home/plus/status/switch:1", DiscoveryFixtures.shellyPlusSwitchStatus),
        ])
        #expect(result.toggles.map(\.wiring.command.topic) == ["home/plus/command/switch:0", "home/plus/command/switch:1"])
        let text = DiscoveredConfigWriter.text(result, options: DiscoveryOptions())
        #expect(text.contains("shelly_plus: home/plus\n        channel: 1\n"))
        #expect(ConfigLoader.load(text: text, fileName: "b.yaml").errors.isEmpty)
    }
}
