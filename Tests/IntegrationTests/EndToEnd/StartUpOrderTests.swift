import AiviSim
import Foundation
import Testing
import TestSupport

/// Issue 12 (lower), start-up order: the event stream opens once MQTT is connected (or
/// after a bounded wait), so presses the service replays at start are carried out, not
/// refused for "MQTT is disconnected". The real binary, broker, simulator.
@Suite("Start-up order: the stream waits for MQTT (real binary)", .serialized)
struct StartUpOrderTests {
    @Test func aPressQueuedBeforeStartRunsOnceTheLateBrokerIsUp() throws {
        // A lifetime long enough for the broker's late start on a loaded machine.
        let world = try EndToEndHarness(eventLifetimeMs: 20_000)
        try world.startBridge()  // the widget's content is at the service (it refuses unknown actions)
        world.bridge?.stop()
        world.broker.stop()
        let eventId = try world.press("movie")  // queued at the service while the board is down
        try world.startBridge(waitForFirstPublish: false)
        #expect(world.waitForLog("disconnected", timeoutSeconds: 10), "\(world.log)")
        #expect(!world.log.contains("event stream connected"), "the stream opened before MQTT:\n\(world.log)")
        try world.broker.start()

        #expect(world.waitForLog("press \(eventId) reached MQTT", timeoutSeconds: 15), "\(world.log)")
        #expect(!world.log.contains("MQTT is disconnected; not carried out"), "\(world.log)")
        let log = world.log
        let mqttUp = log.range(of: "mqtt connected")
        let streamUp = log.range(of: "event stream connected")
        #expect(mqttUp != nil && streamUp != nil && mqttUp!.lowerBound < streamUp!.lowerBound, "\(log)")
    }

    @Test func withTheBrokerDownTheStreamOpensAfterTheBoundedWait() throws {
        let world = try EndToEndHarness()
        world.broker.stop()
        try world.startBridge(waitForFirstPublish: false)
        #expect(world.waitForLog("disconnected", timeoutSeconds: 10), "\(world.log)")
        #expect(!world.log.contains("event stream connected"))
        #expect(world.waitForLog("opening the event stream anyway", timeoutSeconds: 20), "\(world.log)")
        #expect(world.waitForLog("event stream connected", timeoutSeconds: 10), "\(world.log)")
    }

    /// Issue 22 item 2: with the broker down since start, a press was logged "answering
    /// with the true state" but no update went out; the phone went Turning on → No response.
    @Test func withTheBrokerDownSinceStartAPressIsStillAnswered() throws {
        let world = try EndToEndHarness()
        try world.startBridge()  // the widget's content is at the service (it refuses unknown actions)
        world.bridge?.stop()
        world.broker.stop()
        try world.startBridge(waitForFirstPublish: false)
        #expect(world.waitForLog("event stream connected", timeoutSeconds: 25), "\(world.log)")
        let publishesBefore = world.simulator.history(slug: EndToEndHarness.widget).count
        let eventId = try world.press("porch")
        #expect(world.waitForLog("press \(eventId) living-room/porch: MQTT is disconnected", timeoutSeconds: 10), "\(world.log)")
        let answered = waitUntil(timeoutSeconds: 10) {
            world.simulator.history(slug: EndToEndHarness.widget).count > publishesBefore && world.tile("porch")?.state == .off
        }
        #expect(answered, "no answer: the phone shows \(String(describing: world.tile("porch")?.state))\n\(world.log)")
    }
}
