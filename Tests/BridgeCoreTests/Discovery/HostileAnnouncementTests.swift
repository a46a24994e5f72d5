import Testing
import CoreTestSupport
@testable import BridgeCore

/// Issue 19 item 5: `discover` on hostile announcements. Each path that grew
/// quadratically or without bound is now linear or bounded, the excess skipped and
/// said; the figures before and after are in BENCHMARKS.md. These assert the
/// structure (counts, bounds, what is said), not time.
@Suite("discover: hostile announcements are read in bounded, linear work")
struct HostileAnnouncementTests {
    @Test(arguments: [1, 2_000, 200_000])
    func repeatedKeysExpandToOneMember(repeats: Int) {
        let keys = Array(repeating: #""cmd_t":"a/set""#, count: repeats).joined(separator: ",")
        let payload = try? JSONValue.parse(#"{"name":"x",\#(keys),"command_topic":"b/set","avty_t":"a/on"}"#)
        let expanded = HomeAssistantAbbreviations.expanded(payload ?? .null)
        // The full key written beside the abbreviation wins; one member per name.
        #expect(expanded.objectMembers?.map(\.key) == ["name", "command_topic", "availability_topic"])
        #expect(expanded["command_topic"] == .string("b/set"))
    }

    @Test func theFirstOfRepeatedKeysIsKeptAsALookupFindsIt() {
        let payload = try? JSONValue.parse(#"{"cmd_t":"first/set","cmd_t":"second/set","dev":{"ids":"a","ids":"b"}}"#)
        let expanded = HomeAssistantAbbreviations.expanded(payload ?? .null)
        #expect(expanded["command_topic"] == .string("first/set"))
        #expect(expanded["device"]?.objectMembers?.count == 1)
    }

    @Test(arguments: [10, 256, 20_000])
    func aDeviceDiscoveryReadsAtMost256Components(components: Int) {
        let entries = (0..<components).map { #""c\#($0)":{"p":"switch","cmd_t":"dev/\#($0)/set"}"# }.joined(separator: ",")
        let availability = (0..<2_000).map { #"{"t":"dev/avail/\#($0)"}"# }.joined(separator: ",")
        let payload = #"{"dev":{"ids":["x"]},"avty":[\#(availability)],"cmps":{\#(entries)}}"#
        let result = discover([("homeassistant/device/x/config", payload)])
        #expect(result.toggles.count == min(components, HomeAssistantAnnouncement.maxComponents))
        let said = result.skipped.filter { $0.reason.contains("components beyond the first 256") }
        #expect(said.count == (components > 256 ? 1 : 0), "\(result.skipped.prefix(3))")
        // Each component reads at most 16 availability items, not 2,000.
        #expect(result.toggles.first?.origin.contains("of 16 topics") == true, "\(result.toggles.first?.origin ?? "")")
    }

    @Test func idsForManyEqualLabelsCostOneCollisionEach() {
        var maker = ActionIdMaker()
        let ids = (0..<19_000).map { _ in maker.make(from: "Relay") }
        #expect(Set(ids).count == 19_000)
        #expect(ids.prefix(3) == ["relay", "relay_2", "relay_3"])
        #expect(ids.last == "relay_19000")
        // Before: the n-th 'Relay' tried n - 1 taken ids (180 million in all).
        #expect(maker.collisionCount == 18_999)
    }

    @Test func anIdTakenByAnotherLabelIsStillSkipped() {
        var maker = ActionIdMaker()
        #expect(["Relay", "Relay 2", "Relay", "Relay"].map { maker.make(from: $0) } == ["relay", "relay_2", "relay_3", "relay_4"])
    }

    @Test func thousandsOfShelliesEachFindTheirOwnChannels() {
        var messages: [(String, String)] = []
        for index in 0..<1_000 {
            messages.append(("shellies/s\(index)/announce", #"{"id":"s\#(index)","model":"SHSW-1","mac":"AABBCC\#(hex6(index))"}"#))
            messages.append(("shellies/s\(index)/relay/0", "off"))
            if index.isMultiple(of: 2) { messages.append(("shellies/s\(index)/relay/1", "on")) }
        }
        let result = discover(messages)
        #expect(result.toggles.count == 1_500)
        #expect(result.toggles.filter { $0.wiring.command.topic == "shellies/s42/relay/1/command" }.count == 1)
        #expect(result.toggles.filter { $0.wiring.command.topic.hasPrefix("shellies/s43/") }.count == 1)
    }

    @Test func aTasmotaConfigReadsAt32RelaysAndSaysTheRest() {
        let relays = Array(repeating: "1", count: 100_000).joined(separator: ",")
        let config = #"{"t":"t","ft":"%prefix%/%topic%/","tp":["cmnd","stat","tele"],"rl":[\#(relays)],"mac":"AABBCCDDEEFF","dn":"d"}"#
        let result = discover([("tasmota/discovery/AABBCCDDEEFF/config", config)])
        #expect(result.toggles.count == 32)
        #expect(result.skipped.contains { $0.reason == "99968 relay(s) beyond the 32 Tasmota has at most" }, "\(result.skipped)")
    }

    @Test func manyZigbee2MQTTBasesChooseTheBusiestInOnePass() {
        let device = { (ieee: Int) in
            #"{"friendly_name":"lamp\#(ieee)","ieee_address":"0x\#(hex6(ieee))0000000000","definition":{"vendor":"V","model":"M","#
                + #""exposes":[{"type":"switch","features":[{"type":"binary","name":"state","property":"state","access":7,"value_on":"ON","value_off":"OFF"}]}]}}"#
        }
        var messages = (0..<1_500).map { ("z\($0)/bridge/devices", "[\(device($0))]") }
        messages.append(("zbusy/bridge/devices", "[\(device(9_001)),\(device(9_002))]"))
        let options = DiscoveryOptions()
        let result = discover(messages, options: options)
        #expect(DiscoveredConfigWriter.zigbee2mqttBase(result, default: "zigbee2mqtt") == "zbusy")
        let text = DiscoveredConfigWriter.text(result, options: options)
        #expect(text.components(separatedBy: "zigbee2mqtt at base topic").count - 1 == DiscoveredConfigWriter.maxBasesListed)
        #expect(text.contains("... and 1491 more zigbee2mqtt base topics"))
    }

    @Test func aZigbee2MQTTListReadsAt1000DevicesAndSaysTheRest() {
        let device = { (index: Int) in
            #"{"friendly_name":"lamp\#(index)","ieee_address":"0x\#(hex6(index))0000000000","definition":{"vendor":"V","model":"M","#
                + #""exposes":[{"type":"switch","features":[{"type":"binary","name":"state","property":"state","access":7,"value_on":"ON","value_off":"OFF"}]}]}}"#
        }
        let list = "[" + (0..<1_200).map(device).joined(separator: ",") + "]"
        let result = discover([("zigbee2mqtt/bridge/devices", list)])
        #expect(result.toggles.count == Zigbee2MQTTAnnouncement.maxDevices)
        #expect(result.skipped.contains { $0.reason.hasPrefix("200 devices beyond the first 1000") }, "\(result.skipped.prefix(3))")
    }

    /// A list parsed into what its translation reads translates as the whole list:
    /// the captured and documented lists, and members of the wrong kind where objects
    /// and arrays are read (each still read as what it was).
    @Test(arguments: [
        DiscoveryFixtures.zigbee2mqttDevices, DiscoveryFixtures.zigbee2mqttLight, DiscoveryFixtures.zigbee2mqttFanAndLight,
        CoverAnnouncements.zigbee2mqttDevices, #"{"friendly_name":"x"}"#, "7",
        #"[1, null, [], {"friendly_name":"a","definition":[]}, {"friendly_name":"b","definition":{"exposes":{}}}, "#
            + #"{"friendly_name":"c","definition":{"exposes":[[], {"type":"switch","features":{}}, {"type":"light","features":[[]]}]}}]"#,
    ])
    func aListParsedToItsShapeTranslatesAsTheWholeList(list: String) throws {
        let whole = try JSONValue.parse(list)
        let cut = try JSONValue.parse(bytes: Array(list.utf8), cutTo: Zigbee2MQTTAnnouncement.readShape)
        #expect(Zigbee2MQTTAnnouncement.devices(cut, base: "z", version: "1.17.1") == Zigbee2MQTTAnnouncement.devices(whole, base: "z", version: "1.17.1"))
    }

    /// Four lists of 3.9 MiB, each parsed whole at the end beside the others' bytes,
    /// took discover to 65.2 MB: a list is now parsed into what its translation reads
    /// (of the captured 2-gang switch with its descriptions and endpoint clusters, about half).
    @Test func aDeviceListIsParsedIntoWhatItsTranslationReads() throws {
        let (list, count) = DiscoveryFixtures.realShapedDeviceList(bytes: 4_000_000)
        let cut = try JSONValue.parse(bytes: Array(list.utf8), cutTo: Zigbee2MQTTAnnouncement.readShape)
        #expect(cut.serialized().utf8.count * 3 < list.utf8.count * 2, "\(cut.serialized().utf8.count) of \(list.utf8.count) bytes")
        let whole = try JSONValue.parse(list)
        #expect(Zigbee2MQTTAnnouncement.devices(cut, base: "z1", version: nil) == Zigbee2MQTTAnnouncement.devices(whole, base: "z1", version: nil))
        let result = discover([("z1/bridge/devices", list)])
        #expect(result.toggles.count == DiscoveryDeduplication.maxToggles, "2 gangs × the first 1000 devices")
        #expect(result.skipped.contains { $0.reason.hasPrefix("\(count - 1_000) devices beyond the first 1000") })
    }

    /// What is left out is still checked as JSON, and repeated keys stay (a lookup finds the first).
    @Test func aShapedParseChecksWhatItLeavesOut() throws {
        let shape = JSONShape.members(["a": nil, "b": .elements(.members(["c": nil]))])
        #expect(try JSONValue.parse(bytes: Array(#"{"a":1,"x":{"y":[1,2]},"a":2,"b":[{"c":3,"d":4},5]}"#.utf8), cutTo: shape)
                    == .object([JSONMember("a", .int(1)), JSONMember("a", .int(2)), JSONMember("b", .array([.object([JSONMember("c", .int(3))]), .int(5)]))]))
        #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes: Array(#"{"a":1,"x":{"y":[1,}}"#.utf8), cutTo: shape) }
        // Beyond the first elements: counted as null, still checked.
        let firstTwo = JSONShape.elements(.members(["c": nil]), first: 2)
        #expect(try JSONValue.parse(bytes: Array(#"[{"c":1,"d":2},{"c":2},{"c":3},4]"#.utf8), cutTo: firstTwo)
                    == .array([.object([JSONMember("c", .int(1))]), .object([JSONMember("c", .int(2))]), .null, .null]))
        #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes: Array(#"[1,2,{"c":}]"#.utf8), cutTo: firstTwo) }
    }

    @Test func atMost2000TogglesAreWrittenAndTheRestSaid() {
        let messages = (0..<2_500).map { ("homeassistant/switch/s\($0)/config", #"{"name":"S \#($0)","cmd_t":"s/\#($0)/set"}"#) }
        let result = discover(messages)
        #expect(result.toggles.count == DiscoveryDeduplication.maxToggles)
        #expect(result.skipped.contains { $0.what == "500 more toggle(s)" })
    }

    @Test func anOversizedAnnouncementIsDroppedBeforeItIsParsed() {
        var session = DiscoverySession(options: DiscoveryOptions())
        let huge = Array(#"{"id":"x","gen":2,"pad":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: DiscoverySession.maxPayloadBytes) + Array(#""}"#.utf8)
        #expect(session.receive(DiscoveryMessage(topic: "x/announce", payload: huge)).isEmpty, "no status_update for it")
        #expect(session.droppedMessages == 1)
        #expect(session.latest.isEmpty)
    }
}

/// Six hexadecimal digits of `value`.
private func hex6(_ value: Int) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 6 - hex.count)) + hex
}

