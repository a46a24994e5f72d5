import AiviSim
import BridgeCore
import Foundation
import ShellSupport
import Testing
import TestSupport

/// The real bridge binary between a real broker and the simulated service.
@Suite("End to end: the real binary, broker and simulator", .serialized)
struct EndToEndTests {
    @Test("1. toggle press → command → echo → confirming PATCH; the phone shows On")
    func togglePressIsConfirmed() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        _ = try world.press("porch")
        #expect(waitUntil(timeoutSeconds: 10) { world.devices.commands(on: "zigbee2mqtt/porch/set") == ["{\"state\":\"ON\"}"] })
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("porch")?.state == .on })
        #expect(world.publishedOn("porch") == true)
        #expect(world.log.contains("reached MQTT"))
        #expect(!world.simulator.tiles(phone: "phone-a", widget: EndToEndHarness.widget).contains { $0.state == .noResponse })
    }

    @Test("2. button press → its message → a PATCH after the press; Sent ends")
    func buttonPressIsAnswered() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        let before = world.simulator.history(slug: EndToEndHarness.widget).count
        _ = try world.press("movie")
        #expect(waitUntil(timeoutSeconds: 10) { world.devices.commands(on: "home/scene/set") == ["movie"] })
        #expect(waitUntil(timeoutSeconds: 10) { world.simulator.history(slug: EndToEndHarness.widget).count > before })
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("movie")?.state == .idle })
    }

    @Test("3. an expired press → nothing happens; also with the board's clock 10 minutes wrong",
          arguments: [Int64(0), 600_000, -600_000])
    func expiredPressesAreDropped(serverAheadMs: Int64) throws {
        let clock = SimulatedBoardClock.service(startMs: Int64(Date().timeIntervalSince1970 * 1000) + serverAheadMs)
        let world = try EndToEndHarness(simClock: clock)
        // The service replays only unexpired presses when a stream opens: this one must
        // arrive live, so the stream (opened once MQTT is up) must be connected first,
        // as startBridge() waits for.
        try world.startBridge()
        world.simulator.injectPress(widget: EndToEndHarness.widget, action: "movie", kind: .button, ageMs: 6_000)
        #expect(world.waitForLog("expired"))
        // A fresh press still runs: the offset from the stream's Date corrects the board's clock.
        _ = try world.press("movie")
        #expect(waitUntil(timeoutSeconds: 10) { world.devices.commands(on: "home/scene/set") == ["movie"] })
        #expect(world.log.components(separatedBy: "expired").count == 2, "only the late press was dropped")
    }

    @Test("4. the same event twice → one command; an unsafe action also across kill -9 and restart")
    func duplicatesRunOnce() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        world.simulator.duplicateNextEvents(count: 1)
        _ = try world.press("movie")
        #expect(waitUntil(timeoutSeconds: 10) { world.log.contains("duplicate delivery") })
        #expect(waitUntil(timeoutSeconds: 10) { !world.devices.commands(on: "home/scene/set").isEmpty })

        _ = try world.press("feed_cat")
        #expect(waitUntil(timeoutSeconds: 10) { world.devices.commands(on: "home/feeder/cmd").count == 1 })
        // The bridge publishes in order: a second "movie" would have arrived before the cat's command.
        #expect(world.devices.commands(on: "home/scene/set") == ["movie"])
        world.bridge?.kill9()
        try world.startBridge(waitForFirstPublish: false)
        // The new process opens the stream without Last-Event-ID: the service
        // replays every unexpired press, the cat's included.
        #expect(world.waitForLog("duplicate delivery"))
        #expect(world.devices.commands(on: "home/feeder/cmd").count == 1)
    }

    @Test("5. broker restart → reconnect, resubscribe, online again, presses work")
    func brokerRestart() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        #expect(waitUntil(timeoutSeconds: 10) { world.devices.commands(on: "test/bridge/status").last == "online" })
        world.broker.stop()
        try world.broker.start()
        #expect(waitUntil(timeoutSeconds: 20) { world.devices.client.isConnected })
        try world.devices.client.setSubscriptions(["zigbee2mqtt/porch/set", "home/scene/set", "test/bridge/status"])
        #expect(waitUntil(timeoutSeconds: 20) { world.log.components(separatedBy: "mqtt connected;").count > 2 }, "\(world.log)")
        _ = try world.press("movie")
        #expect(waitUntil(timeoutSeconds: 10) { world.devices.commands(on: "home/scene/set").contains("movie") }, "\(world.log)")
    }

    @Test("6. PATCH failures (500s, 429 with Retry-After, a slow server) → the latest content arrives, no storm")
    func patchFailuresRecover() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        let before = world.simulator.history(slug: EndToEndHarness.widget).count
        world.simulator.failNextPatches(count: 3, status: 500)
        for state in ["ON", "OFF", "ON", "OFF", "ON"] {
            world.devices.publish("zigbee2mqtt/porch", "{\"state\":\"\(state)\"}", retain: true)
        }
        #expect(waitUntil(timeoutSeconds: 15) { world.publishedOn("porch") == true })
        world.simulator.failNextPatches(count: 1, status: 429, retryAfterSeconds: 1)
        world.devices.publish("zigbee2mqtt/porch", "{\"state\":\"OFF\"}", retain: true)
        #expect(waitUntil(timeoutSeconds: 15) { world.publishedOn("porch") == false })
        #expect(world.log.contains("rate limited; retrying in 1000 ms"))
        world.simulator.delayAnswers(milliseconds: 1_500)
        for state in ["ON", "OFF", "ON"] {
            world.devices.publish("zigbee2mqtt/porch", "{\"state\":\"\(state)\"}", retain: true)
        }
        #expect(waitUntil(timeoutSeconds: 15) { world.publishedOn("porch") == true })
        world.simulator.clearFaults()
        let accepted = world.simulator.history(slug: EndToEndHarness.widget).count - before
        #expect(accepted <= 6, "only the latest content goes out after failures, not every intermediate state")
    }

    @Test("7. stream dropped cleanly and half-open → reconnect with Last-Event-ID, presses still carried out",
          arguments: [StreamDropMode.close, .halfOpen])
    func streamDropsRecover(mode: StreamDropMode) throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        _ = try world.press("movie")
        #expect(waitUntil(timeoutSeconds: 10) { world.devices.commands(on: "home/scene/set").count == 1 })
        world.simulator.dropEventStreams(mode)
        #expect(world.waitForLog("event stream disconnected", timeoutSeconds: 15))
        _ = try world.press("movie", phone: "phone-b")
        #expect(waitUntil(timeoutSeconds: 15) { world.devices.commands(on: "home/scene/set").count == 2 })
    }

    @Test("8. malformed events and payloads, unknown action, wrong kind → logged, skipped, still working")
    func badInputIsSkipped() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        world.simulator.injectEvent(.malformed)
        world.simulator.injectEvent(.unknownType)
        world.devices.publish("zigbee2mqtt/porch", "{\"state\":\"MAYBE\"}")
        world.simulator.injectPress(widget: EndToEndHarness.widget, action: "sauna", kind: .toggle, value: true, ageMs: 100)
        world.simulator.injectPress(widget: EndToEndHarness.widget, action: "movie", kind: .toggle, value: true, ageMs: 100)
        #expect(world.waitForLog("skipping malformed event"))
        #expect(world.waitForLog("ignoring payload"))
        #expect(world.waitForLog("living-room/sauna: unknown action"))
        #expect(world.waitForLog("living-room/movie: is a toggle press but the action is a button"))
        _ = try world.press("movie")
        #expect(waitUntil(timeoutSeconds: 10) { world.devices.commands(on: "home/scene/set") == ["movie"] })
        #expect(world.bridge?.isRunning == true)
    }

    @Test("9. device that never answers → the phone sees the true state before its 15 s")
    func unansweredPressShowsTheTrueState() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        _ = try world.press("dead")
        #expect(waitUntil(timeoutSeconds: 10) { world.devices.commands(on: "cmnd/dead/POWER").contains("ON") })
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("dead")?.state == .off })
        #expect(world.log.contains("no confirmation from the device"))
    }

    @Test("9b. device known offline → no command, the phone sees off at once")
    func offlineDeviceIsAnsweredAtOnce() throws {
        let world = try EndToEndHarness()
        world.devices.publish("zigbee2mqtt/porch/availability", "{\"state\":\"offline\"}", retain: true)
        try world.startBridge()
        #expect(world.waitForLog("mqtt zigbee2mqtt/porch/availability {\"state\":\"offline\"}"))
        _ = try world.press("porch")
        #expect(world.waitForLog("device unavailable"))
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("porch")?.state == .off })
        #expect(world.devices.commands(on: "zigbee2mqtt/porch/set").isEmpty)
    }

    @Test("10. SIGHUP with a good and a bad config; SIGTERM exits 0 and leaves offline")
    func signals() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        let good = try String(contentsOfFile: world.configPath, encoding: .utf8).replacingOccurrences(of: "label: Movie", with: "label: Cinema")
        try good.write(toFile: world.configPath, atomically: true, encoding: .utf8)
        world.bridge?.send(SIGHUP)
        #expect(waitUntil(timeoutSeconds: 10) { world.simulator.content(slug: EndToEndHarness.widget)?.serialized().contains("Cinema") == true })
        try (good + "\n  bogus_key: 1\n").write(toFile: world.configPath, atomically: true, encoding: .utf8)
        world.bridge?.send(SIGHUP)
        #expect(world.waitForLog("reload refused"))
        #expect(world.bridge?.isRunning == true)
        world.bridge?.send(SIGTERM)
        #expect(world.bridge?.waitForExit(timeoutSeconds: 10) == 0)
        #expect(waitUntil(timeoutSeconds: 10) { world.devices.commands(on: "test/bridge/status").last == "offline" })
    }
}
