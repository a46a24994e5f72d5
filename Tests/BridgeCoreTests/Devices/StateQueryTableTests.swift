import Testing

@testable import BridgeCore

/// Issue 22 item 10: two actions on one device sent its state query twice (a
/// Tasmota's POWER1 and POWER2 tiles asked `POWER1` and `POWER2`, a zigbee2mqtt
/// switch's two endpoints two gets). One sending per device: Tasmota's relays ask
/// `State` (one answer with every relay), reads of attributes to one topic are one
/// read, the same query goes once.
@Suite("State queries: one per device")
struct StateQueryTableTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var queries: [(topic: String, payload: String)]
        var sent: [(topic: String, payload: String)]
        var testDescription: String { name }
    }

    static func spec(_ query: (topic: String, payload: String)) -> MQTTMessageSpec {
        MQTTMessageSpec(topic: query.topic, payload: query.payload)
    }

    @Test(arguments: [
        Case(name: "a Tasmota's relays: one State", queries: [("cmnd/strip/State", ""), ("cmnd/strip/State", ""), ("cmnd/strip/State", "")],
             sent: [("cmnd/strip/State", "")]),
        Case(name: "zigbee2mqtt endpoints: one get of both", queries: [("z/wall/get", #"{"state_l1":""}"#), ("z/wall/get", #"{"state_l2":""}"#)],
             sent: [("z/wall/get", #"{"state_l1":"","state_l2":""}"#)]),
        Case(name: "a read already asked is not repeated in the merge",
             queries: [("z/wall/get", #"{"state_l1":""}"#), ("z/wall/get", #"{"state_l1":"","state_l2":""}"#), ("z/wall/get", #"{"state_l1":""}"#)],
             sent: [("z/wall/get", #"{"state_l1":"","state_l2":""}"#)]),
        Case(name: "two devices: one each, in the config's order",
             queries: [("z/b/get", #"{"state":""}"#), ("cmnd/a/State", ""), ("z/b/get", #"{"position":""}"#)],
             sent: [("z/b/get", #"{"state":"","position":""}"#), ("cmnd/a/State", "")]),
        Case(name: "other payloads to one topic: each once, never merged",
             queries: [("dev/cmd", #"{"get":"a"}"#), ("dev/cmd", #"{"get":"b"}"#), ("dev/cmd", #"{"get":"a"}"#), ("dev/cmd", "status")],
             sent: [("dev/cmd", #"{"get":"a"}"#), ("dev/cmd", #"{"get":"b"}"#), ("dev/cmd", "status")]),
        Case(name: "a read beside another payload: both", queries: [("dev/get", "update"), ("dev/get", #"{"state":""}"#)],
             sent: [("dev/get", "update"), ("dev/get", #"{"state":""}"#)]),
        Case(name: "an empty object or invalid JSON is a payload, not a read",
             queries: [("dev/get", "{}"), ("dev/get", #"{"state":"""#), ("dev/get", #"{"state":""}"#)],
             sent: [("dev/get", "{}"), ("dev/get", #"{"state":"""#), ("dev/get", #"{"state":""}"#)]),
        Case(name: "topics are bytes: NFC and NFD are two devices",
             queries: [("z/caf\u{E9}/get", #"{"state":""}"#), ("z/cafe\u{301}/get", #"{"state":""}"#)],
             sent: [("z/caf\u{E9}/get", #"{"state":""}"#), ("z/cafe\u{301}/get", #"{"state":""}"#)]),
    ])
    func oneSendingPerDevice(_ testCase: Case) {
        let table = StateQueryTable(testCase.queries.map(Self.spec))
        let sent = table.allMessages.map { ($0.topic, String(decoding: $0.payload, as: UTF8.self)) }
        #expect(sent.map(\.0).map(UTF8Key.init) == testCase.sent.map(\.topic).map(UTF8Key.init)
                && sent.map(\.1) == testCase.sent.map(\.payload), "\(sent)")
        for message in table.allMessages {
            #expect(message.retain == false && message.qos == 1, "a query is never retained")
        }
    }

    @Test func aTopicsMessagesAreFoundByBytes() {
        let table = StateQueryTable([Self.spec(("z/caf\u{E9}/get", #"{"state":""}"#))])
        #expect(table.messages(to: "z/caf\u{E9}/get").count == 1)
        #expect(table.messages(to: "z/cafe\u{301}/get").isEmpty)
    }

    @Test func manyReadsStayLinear() {
        let queries = (0..<20_000).map { Self.spec(("z/wall/get", "{\"state_l\($0 % 5_000)\":\"\"}")) }
        let messages = StateQueryTable(queries).allMessages
        #expect(messages.count == 1)
        #expect(messages.first.map { String(decoding: $0.payload, as: UTF8.self).split(separator: ",").count } == 5_000)
    }
}
