import Foundation
import MQTTShell
import Testing
import TestSupport

/// Issue 19 item 4: a broker that sends QoS 2 PUBLISHes and never a PUBREL made
/// libmosquitto keep every one (over 3.1.1: 20,000 × 60 KB, 1.19 GB). The shell
/// subscribes at QoS 1 at most, so such a PUBLISH is a protocol violation: it is
/// not delivered, the connection is closed before its PUBREC, and the handle is
/// recreated (freeing what libmosquitto held) after the fatal delay.
@Suite("MQTTClient: a QoS 2 flood without PUBREL")
struct MQTTQoS2FloodTests {
    @Test(arguments: [MQTTQoS.atLeastOnce, .exactlyOnce])
    func aQoS2PublishAboveTheSubscribedQoSEndsTheConnection(asked: MQTTQoS) throws {
        let broker = try FakeMQTTBroker(mode: .qos2Flood, floodCount: 20_000, floodBytes: 60_000)
        let recorded = try RecordedMQTTClient(port: broker.port, subscriptions: ["dev/+/state"], protocolVersion: .v311) {
            $0.subscriptionQoS = asked
        }
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil(timeoutSeconds: 15) { broker.floodConnectionsEnded >= 2 }, "\(recorded.events.values); ended \(broker.floodConnectionsEnded), sent \(broker.floodPublishesSent)")
        let violations = recorded.fatalReasons.filter { $0.contains("protocol violation") && $0.contains("QoS 2") }
        #expect(violations.count >= 2, "\(recorded.fatalReasons)")
        #expect(recorded.messages(on: "dev/x/state").isEmpty, "no QoS 2 message delivered")
        // Without the bound the client answers (and keeps) every one: 20,000 PUBRECs per connection.
        #expect(broker.floodPubrecsReceived <= broker.floodConnectionsEnded,
                "PUBRECs \(broker.floodPubrecsReceived), connections \(broker.floodConnectionsEnded)")
        #expect(broker.floodPublishesSent < 2 * 20_000, "sent \(broker.floodPublishesSent)")
    }
}
