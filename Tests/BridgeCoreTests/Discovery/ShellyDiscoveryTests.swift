import Testing
import TestSupport
@testable import BridgeCore

@Suite struct ShellyDiscoveryTests {
    @Test func discoveryAsksShelliesToAnnounceAndGen2ForItsStatus() {
        var session = DiscoverySession(options: DiscoveryOptions())
        #expect(session.initialRequests == [DiscoveryRequest(topic: "shellies/command", payload: "announce"),
                                            DiscoveryRequest(topic: "shellies/command", payload: "update")])
        #expect(session.receive(DiscoveryMessage(topic: "shellies/announce", text: DiscoveryFixtures.shellyGen1Announce)).isEmpty)
        let requests = session.receive(DiscoveryMessage(topic: "shellyplus1pm-441793d69718/announce", text: DiscoveryFixtures.shellyPlusAnnounce))
        #expect(requests == [DiscoveryRequest(topic: "shellyplus1pm-441793d69718/command", payload: "status_update")])
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

    @Test func aGen2DeviceWithoutStatusIsListedWithWhatToTurnOn() {
        let result = discover([("shellyplus1pm-441793d69718/announce", DiscoveryFixtures.shellyPlusAnnounce)])
        #expect(result.toggles.isEmpty)
        #expect(result.skipped.first?.reason.contains("Generic status update over MQTT") == true)
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
