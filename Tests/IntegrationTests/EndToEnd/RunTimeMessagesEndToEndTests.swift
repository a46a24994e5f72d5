import AiviSim
import BridgeCore
@testable import BridgeDaemon
import CurlShell
import Foundation
import MQTTShell
import Testing
import TestSupport

/// What the running bridge says, with the real binary, broker and simulator.
@Suite("Run-time messages (real binary)", .serialized)
struct RunTimeMessagesEndToEndTests {
    @Test func aPressAnsweredWithoutACommandIsNotLoggedAsReachingMQTT() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        world.devices.publish("zigbee2mqtt/porch/availability", "{\"state\":\"offline\"}", retain: true)
        #expect(world.waitForLog("mqtt zigbee2mqtt/porch/availability {\"state\":\"offline\"}"))
        let unanswered = try world.press("porch")
        #expect(world.waitForLog("device unavailable"))
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("porch")?.state == .off })
        #expect(!world.log.contains("press \(unanswered) reached MQTT"), "\(world.log)")
        world.devices.publish("zigbee2mqtt/porch/availability", "{\"state\":\"online\"}", retain: true)
        // The second "online" line: the first (retained, at start) is already in the log.
        let online = "mqtt zigbee2mqtt/porch/availability {\"state\":\"online\"}"
        #expect(waitUntil(timeoutSeconds: 10) { world.log.components(separatedBy: online).count >= 3 }, "\(world.log)")
        let carried = try world.press("porch")
        #expect(world.waitForLog("press \(carried) reached MQTT"), "\(world.log)")
    }

    @Test func aBrokenReloadLogsTheCaretOnItsOwnLine() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        let text = try String(contentsOfFile: world.configPath, encoding: .utf8)
        try text.replacingOccurrences(of: "label: Movie", with: "labl: Movie").write(toFile: world.configPath, atomically: true, encoding: .utf8)
        world.bridge?.send(SIGHUP)
        #expect(world.waitForLog("reload refused: bridge.yaml:"))
        #expect(waitUntil(timeoutSeconds: 5) {
            let lines = world.log.split(separator: "\n")
            guard let index = lines.firstIndex(where: { $0.contains("unknown key 'labl'") }), index + 2 < lines.count else { return false }
            return lines[index + 1].hasSuffix("reload refused:         labl: Movie") && lines[index + 2].hasSuffix("reload refused:         ^")
        }, "\(world.log)")
        #expect(world.bridge?.isRunning == true)
    }

    /// Session 3 review (F-fifo): with the config path a FIFO, SIGHUP hung the loop for
    /// good (no press handled, SIGTERM ignored). Now the reload is refused at once.
    @Test func aReloadFromAFIFOIsRefusedAndTheLoopGoesOn() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        #expect(world.waitForLog("event stream connected", timeoutSeconds: 20), "\(world.log)")
        try FileManager.default.removeItem(atPath: world.configPath)
        #expect(mkfifo(world.configPath, 0o600) == 0)
        world.bridge?.send(SIGHUP)
        #expect(world.waitForLog("a FIFO, not a regular file"), "\(world.log)")
        let press = try world.press("porch")
        #expect(world.waitForLog("press \(press)"), "the loop still handles presses: \(world.log)")
        world.bridge?.send(SIGTERM)
        #expect(world.bridge?.waitForExit(timeoutSeconds: 10) != nil, "a stop still stops")
    }

    @Test func aLostBrokerIsNamedByHostAndPort() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        world.broker.stop()
        #expect(world.waitForLog("mqtt 127.0.0.1:\(world.broker.port) disconnected"), "\(world.log)")
    }

    @Test func anotherClientWithTheSameIdIsNamed() throws {
        let world = try EndToEndHarness()
        try world.startBridge()
        let rogue = MQTTClient(settings: MQTTShell.MQTTSettings(
            host: "127.0.0.1", port: world.broker.port, clientId: "bridge-under-test",
            reconnectDelayMinMs: 200, reconnectDelayMaxMs: 200)) { _ in }
        try rogue.start()
        defer { rogue.stop() }
        // mosquitto 2.0.11 drops the older connection without a DISCONNECT reason, even over MQTT 5: said as a possibility.
        #expect(world.waitForLog("client_id bridge-under-test", timeoutSeconds: 20), "\(world.log)")
    }

    @Test func aRefusedPatchCarriesTheServicesReasonFromTheBody() {
        let body = Array(#"{"error":"content.actions[0]: color is not #RRGGBB"}"#.utf8)
        let outcome = AiviLink.outcome(.response(HTTPClientResponse(status: 400, headers: [:], body: body)))
        #expect(outcome == .status(400, reason: "content.actions[0]: color is not #RRGGBB"))
        let ok = AiviLink.outcome(.response(HTTPClientResponse(status: 204, headers: [:], body: body)))
        #expect(ok == .status(204))
    }
}

/// The unit validates the config before it signals a reload.
@Suite struct ReloadValidationTests {
    @Test func execReloadRunsCheckOnTheRunningConfigBeforeTheSignal() throws {
        let lines = try PackagingTests.text("systemd/switchboard-bridge.service").split(separator: "\n").map(String.init)
        let reloads = lines.filter { $0.hasPrefix("ExecReload=") }
        let start = try #require(lines.first { $0.hasPrefix("ExecStart=") })
        let config = try #require(start.components(separatedBy: " --config ").last)
        #expect(reloads == ["ExecReload=/usr/local/bin/switchboard-bridge check --config \(config)", "ExecReload=/bin/kill -HUP $MAINPID"])
    }

    @Test func theReloadCheckFailsOnABrokenConfigAndPassesOnAGoodOne() throws {
        let directory = try TemporaryDirectory(prefix: "reload")
        let path = directory.file("bridge.yaml")
        let good = "aivi:\n  token_env: T\nstate_dir: \(directory.file("state"))\nwidgets:\n  - slug: w\n    actions:\n      - id: a\n        label: A\n        publish: {topic: a, payload: b}\n"
        try good.write(toFile: path, atomically: true, encoding: .utf8)
        let passed = try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: ["check", "--config", path],
                                      directory: directory.path, name: "reload-good", environment: ["T": "token"])
        #expect(passed.waitForExit(timeoutSeconds: 20) == 0, "\(passed.stderr)")
        try good.replacingOccurrences(of: "label: A", with: "labl: A").write(toFile: path, atomically: true, encoding: .utf8)
        let failed = try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: ["check", "--config", path],
                                      directory: directory.path, name: "reload-bad", environment: ["T": "token"])
        #expect(failed.waitForExit(timeoutSeconds: 20) == 1)
        let lines = failed.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("        labl: A") && lines.contains("        ^"), "the caret on its own line: \(failed.stderr)")
    }
}
