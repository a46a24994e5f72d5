import Testing
import CoreTestSupport
@testable import BridgeCore

/// Issue 19 item 6: whoever announces must not choose where `discover` publishes,
/// nor make a real device disappear from the output.
@Suite("discover: forged announcements")
struct DiscoveryForgeryTests {
    static func gen2Announce(id: String) -> String {
        #"{"name":null,"id":"\#(id)","mac":"441793D69718","model":"SNSW-001P16EU","gen":2,"fw_id":"x","ver":"1.0.0","app":"Plus1PM"}"#
    }

    @Test func statusUpdateGoesOnlyToPrefixesThatLookLikeAShellys() {
        var session = DiscoverySession(options: DiscoveryOptions())
        var requests: [DiscoveryRequest] = []
        for index in 0..<300 {
            requests += session.receive(DiscoveryMessage(topic: "victim\(index)/announce", text: Self.gen2Announce(id: "x\(index)")))
        }
        requests += session.receive(DiscoveryMessage(topic: "home/garage/announce", text: Self.gen2Announce(id: "shellyplus1pm-441793d69718")))
        #expect(requests.isEmpty, "\(requests.prefix(3))")
        requests += session.receive(DiscoveryMessage(topic: "shellyplus1pm-441793d69718/announce",
                                                     text: Self.gen2Announce(id: "shellyplus1pm-441793d69718")))
        requests += session.receive(DiscoveryMessage(topic: "shellies/announce", text: Self.gen2Announce(id: "shellyplus1pm-441793d69718")))
        #expect(requests == [DiscoveryRequest(topic: "shellyplus1pm-441793d69718/command", payload: "status_update"),
                             DiscoveryRequest(topic: "shellyplus1pm-441793d69718/rpc",
                                              payload: #"{"id":1,"src":"switchboard-bridge-discover","method":"Shelly.GetStatus"}"#)], "asked once")
        let said = session.result().skipped.filter { $0.what == "301 gen2/3 Shelly announcement(s)" }
        #expect(said.count == 1, "\(session.result().skipped.prefix(3))")
    }

    @Test func statusRequestsAreBoundedInCount() {
        var session = DiscoverySession(options: DiscoveryOptions())
        var requests: [DiscoveryRequest] = []
        for index in 0..<1_000 {
            let id = "shellyplus1-" + String(repeating: "0", count: 12 - String(index, radix: 16).count) + String(index, radix: 16)
            requests += session.receive(DiscoveryMessage(topic: "\(id)/announce", text: Self.gen2Announce(id: id)))
        }
        // Two requests each (status_update and Shelly.GetStatus), for the first 256 devices.
        #expect(requests.count == 2 * DiscoverySession.maxStatusRequests)
        #expect(Set(requests.map(\.topic)).count == 2 * DiscoverySession.maxStatusRequests)
        #expect(session.result().skipped.contains { $0.what == "744 gen2/3 Shelly announcement(s)" })
        // A retained `online` of an id-shaped prefix beyond the bound asks nothing either.
        #expect(session.receive(DiscoveryMessage(topic: "shellyplus1-0000000fffff/online", text: "true")).isEmpty)
    }

    @Test(arguments: [
        ("shellyplus1pm-441793d69718", true), ("shellypro4pm-a8032ab12345", true), ("shelly1minig3-543204abcdef", true),
        ("shellyplus1pm-441793d6971", false), ("victim", false), ("shellyplus1pm-441793d69718/x", false),
        ("home/shellyplus1pm-441793d69718", false), ("notshelly-441793d69718", false), ("shellyplus1pm-441793d6971g", false),
    ])
    func theShellyIdPattern(text: String, looksLikeAShelly: Bool) {
        #expect(ShellyAnnouncement.looksLikeShellyId(text) == looksLikeAShelly)
    }

    @Test func aForgedTasmotaConfigWithAnESPHomeMACDoesNotReplaceIt() {
        let result = discover([
            ("homeassistant/switch/garagedoor1/garage_relay/config", DiscoveryFixtures.esphomeSwitch),
            ("tasmota/discovery/20500DE464EC/config", Self.forgedTasmota),
        ])
        let commands = result.toggles.map(\.wiring.command.topic)
        #expect(commands.contains("garagedoor1/switch/garage_relay/command"), "the real ESPHome relay is kept: \(commands)")
    }

    /// The issue asked to prefer "the source whose topics were heard speaking"; the rule
    /// is the same MAC and the same device topic instead (README, "discover"): a forger
    /// who can publish a config can publish its state as loudly, so speaking decides nothing.
    @Test func aForgedConfigThatAlsoSpeaksDoesNotReplaceTheRealDevice() {
        let result = discover([
            ("homeassistant/switch/garagedoor1/garage_relay/config", DiscoveryFixtures.esphomeSwitch),
            ("tasmota/discovery/20500DE464EC/config", Self.forgedTasmota),
            ("stat/evil/RESULT", #"{"POWER":"ON"}"#), ("stat/evil/POWER", "ON"), ("tele/evil/LWT", "Online"),
        ])
        let commands = result.toggles.map(\.wiring.command.topic)
        #expect(commands.contains("garagedoor1/switch/garage_relay/command"), "the real ESPHome relay is kept: \(commands)")
    }

    static let forgedTasmota = #"{"ip":"10.0.0.66","dn":"Evil","fn":["Evil"],"hn":"evil","mac":"20500DE464EC","md":"Generic","ty":0,"if":0,"#
        + #""ofln":"Offline","onln":"Online","state":["OFF","ON","TOGGLE","HOLD"],"sw":"13.0.0","t":"evil","ft":"%prefix%/%topic%/","#
        + #""tp":["cmnd","stat","tele"],"rl":[1,0,0,0,0,0,0,0],"swc":[-1],"swn":[null],"btn":[0],"so":{},"lk":0,"lt_st":0,"sho":[0],"ver":1}"#
}
