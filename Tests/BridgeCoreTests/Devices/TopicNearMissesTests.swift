@testable import BridgeCore
import Testing

/// Issue 22 item 4: near misses beyond case — a level a typo away, a topic under the
/// device's (its `availability`), a name zigbee2mqtt's device list has — and none for
/// what is configured, far, or differs in two levels; the index keeps it linear.
struct TopicNearMissesTests {
    static func finder(_ targets: [String], configured: [String] = []) -> TopicNearMisses {
        TopicNearMisses(targets: targets, configured: Set((targets + configured).map(UTF8Key.init)), zigbee2mqttBase: "zigbee2mqtt")
    }

    @Test(arguments: [
        ("zigbee2mqtt/Halway Light", "zigbee2mqtt/Hallway Light", "zigbee2mqtt/Hallway Light", false),
        ("zigbee2mqtt/kitchen", "zigbee2mqtt/Kitchen", "zigbee2mqtt/Kitchen", true),
        ("zigbee2mqtt/caf\u{E9}", "zigbee2mqtt/cafe\u{301}", "zigbee2mqtt/cafe\u{301}", true),
        ("zigbee2mqtt/Halway Light", "zigbee2mqtt/Hallway Light/availability", "zigbee2mqtt/Hallway Light", false),
        ("stat/tasmota_A1B2C3/RESULT", "stat/tasmota_A1B2C4/RESULT", "stat/tasmota_A1B2C4/RESULT", false),
        ("shellies/shelly1-AB12/relay/0", "shellies/shelly1-AB21/relay/0", "shellies/shelly1-AB21/relay/0", false),
        ("zigbee2mqtt/Porch", "zigbee2mqtt/porhc", "zigbee2mqtt/porhc", false),
    ] as [(String, String, String, Bool)])
    func aHeardTopicNearlyLikeASilentOneIsFound(target: String, heard: String, found: String, isCaseOnly: Bool) {
        var finder = Self.finder([target])
        finder.noteHeard(topic: heard)
        let misses = finder.found[UTF8Key(target)] ?? []
        #expect(misses.map(\.found) == [found])
        #expect(misses.first?.isCaseOnly == isCaseOnly)
        #expect(misses.first?.listedIn == nil)
    }

    @Test(arguments: [
        ("zigbee2mqtt/Halway Light", "zigbee2mqtt/Garage Door"),
        ("zigbee2mqtt/Halway Light", "zigbee2mqtt/Hallway Lights/x/y"),
        ("stat/plug/POWER", "tele/plug/STATE"),
        ("stat/plug/POWER", "stat/plg/POWR"),
        ("a/tv", "a/xy"),
        ("zigbee2mqtt/Halway Light", "zigbee2mqtt/Halway Light"),
    ])
    func farOrTwoLevelsOffOrTheSameIsNot(target: String, heard: String) {
        var finder = Self.finder([target])
        finder.noteHeard(topic: heard)
        #expect(finder.found.isEmpty, "\(finder.found)")
    }

    @Test func anotherActionsTopicIsNoNearMiss() {
        var finder = Self.finder(["zigbee2mqtt/Lamp 3"], configured: ["zigbee2mqtt/Lamp 1"])
        finder.noteHeard(topic: "zigbee2mqtt/Lamp 1")
        finder.noteHeard(topic: "zigbee2mqtt/Lamp 4")
        #expect(finder.found[UTF8Key("zigbee2mqtt/Lamp 3")]?.map(\.found) == ["zigbee2mqtt/Lamp 4"])
    }

    @Test func zigbee2mqttsDeviceListNamesTheDevice() throws {
        var finder = Self.finder(["zigbee2mqtt/Halway Light"])
        let list = #"[{"friendly_name":"Coordinator","type":"Coordinator"},{"friendly_name":"Hallway Light","ieee_address":"0x01"}]"#
        finder.noteListed(topic: "zigbee2mqtt/bridge/devices", payload: Array(list.utf8))
        finder.noteListed(topic: "other/bridge/devices", payload: Array(#"[{"friendly_name":"Halway Lite"}]"#.utf8))
        let miss = try #require(finder.found[UTF8Key("zigbee2mqtt/Halway Light")]?.first)
        #expect(miss.found == "zigbee2mqtt/Hallway Light" && miss.listedIn == "zigbee2mqtt/bridge/devices" && !miss.isCaseOnly)
        #expect(NearMiss.clause([miss]) == "; zigbee2mqtt/bridge/devices lists zigbee2mqtt/Hallway Light (not zigbee2mqtt/Halway Light): "
            + "is the name in the config misspelt?")
    }

    @Test func theClosestThreeAreKept() {
        var finder = Self.finder(["zigbee2mqtt/Bedroom Lamp"])
        for heard in ["zigbee2mqtt/Bedroom Lamps", "zigbee2mqtt/bedroom lamp", "zigbee2mqtt/Bedroom Lam", "zigbee2mqtt/Bedroon Lamp",
                      "zigbee2mqtt/Bedroom lamp"] {
            finder.noteHeard(topic: heard)
        }
        let misses = finder.found[UTF8Key("zigbee2mqtt/Bedroom Lamp")] ?? []
        #expect(misses.count == 3)
        #expect(misses.prefix(2).allSatisfy { $0.isCaseOnly }, "the case-only ones first: \(misses)")
    }

    /// 2,000 silent zigbee2mqtt topics and 19,000 heard ones: each heard topic meets only
    /// the targets sharing an index key (one per deletion variant), so this is quick; a
    /// comparison of every pair would be 40 million edit distances.
    @Test func manyTargetsAndTopicsStayLinear() {
        let targets = (0..<2_000).map { "zigbee2mqtt/Room \($0) Light" }
        var finder = Self.finder(targets)
        for index in 0..<19_000 { finder.noteHeard(topic: "zigbee2mqtt/Other \(index) Device/availability") }
        finder.noteHeard(topic: "zigbee2mqtt/Room 17 Lihgt")
        #expect(finder.found.count == 1)
        #expect(finder.found[UTF8Key("zigbee2mqtt/Room 17 Light")]?.map(\.found) == ["zigbee2mqtt/Room 17 Lihgt"])
    }
}
