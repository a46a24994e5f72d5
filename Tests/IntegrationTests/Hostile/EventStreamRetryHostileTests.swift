import Foundation
import Testing
import TestSupport

/// Issue 12, item 4, against the real binary: a stream that sends a hostile
/// `retry:` and hangs up at once used to hot-loop (4,000 GETs in 10 s with
/// `retry: 0`) or overflow (13,000 in 30 s with a huge one). The rates (the
/// 500 ms floor, the doubling, the 300 s clamp, one event not making a stream
/// healthy) are asserted on the simulated clock, `SSEReconnectUnderSimulationTests`
/// (issue 42 §4); here what the binary adds: it reads the number off the wire,
/// logs the hang-up, lives on past the delay it computed, and reconnects.
@Suite("Hostile event stream retry (real binary)", .serialized)
struct EventStreamRetryHostileTests {
    @Test(arguments: [("retry: 0\n\n", true), ("retry: 9223372036854775807\n\n", false),
                      ("retry: 99999999999999999999999\n\n", false), ("retry: 1\nid: e1\ndata: x\n\n", true)])
    func aClosingStreamWithAHostileRetryIsSurvived(body: String, reconnectsWithinASecond: Bool) throws {
        let world = try HostileWorld(script: ["events_body": body, "events_hold_s": 0])
        try world.startBridge()
        #expect(world.waitForLog("event stream disconnected: stream closed by the server; reconnecting"), "\(world.log)")
        // Alive past the delay's computation: a state that changes is still published.
        let patches = world.server.patchCount
        try MosquittoCLI.publish(port: world.broker.port, topic: "zigbee2mqtt/porch", payload: #"{"state":"ON"}"#,
                                 directory: world.directory)
        #expect(waitUntil(timeoutSeconds: 10) { world.server.patchCount > patches || !world.isBridgeRunning }, "\(world.log)")
        #expect(world.isBridgeRunning, "\(world.log)")
        if reconnectsWithinASecond {
            #expect(waitUntil(timeoutSeconds: 5) { world.server.streamRequestCount >= 2 }, "\(world.server.log)")
            // No hot loop through the real client: the old one made ~400 GETs a second.
            #expect(world.server.streamRequestCount <= 10, "\(world.server.streamRequestCount) GETs: \(world.server.log)")
        } else {
            #expect(world.server.streamRequestCount == 1, "a huge retry: is one connect for minutes: \(world.server.log)")
        }
    }
}
