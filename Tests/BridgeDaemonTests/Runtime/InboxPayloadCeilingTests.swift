import BridgeCore
@testable import BridgeDaemon
import Testing

/// Review session 3, F-maxpayload: `max_payload_bytes` above the inbox's MQTT
/// byte budget was accepted, and every such message dropped as "inbox full".
/// One constant now bounds both: the largest allowed payload, with the longest
/// topic MQTT allows, always enters an empty inbox.
@Suite struct InboxPayloadCeilingTests {
    @Test func anEmptyInboxAdmitsTheLargestPayloadTheConfigAllows() {
        let inbox = RuntimeInbox()
        let topic = String(repeating: "t", count: 65_535)
        let payload = [UInt8](repeating: 0x41, count: Int(MQTTSettings.maxPayloadBytesRange.upperBound))
        #expect(inbox.pushMQTT(topic: topic, payload: payload))
        #expect(inbox.take(timeoutMs: 0).droppedCount == 0)
    }
}
