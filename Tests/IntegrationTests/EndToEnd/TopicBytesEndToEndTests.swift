import Foundation
import Testing
import TestSupport

/// Issue 19, item 9, against the real binary and a real mosquitto: `café/state`
/// written NFC and NFD are two topics to the broker, and now to the bridge too.
/// Before, Swift's `String ==` merged them: one subscription for both (the other
/// device was never heard), one device's state moved both tiles, and `check`
/// counted one topic.
@Suite("Topics are bytes end to end (real binary, real mosquitto)", .serialized)
struct TopicBytesEndToEndTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    static let actions = """
      - id: nfc
        label: Composed
        kind: toggle
        state_topic: "\(composed)/state"
        command_topic: "\(composed)/set"
      - id: nfd
        label: Decomposed
        kind: toggle
        state_topic: "\(decomposed)/state"
        command_topic: "\(decomposed)/set"
    """

    @Test func twoSpellingsAreTwoDevices() throws {
        let world = try EndToEndHarness.with(actions: Self.actions, states: [Self.composed, Self.decomposed].map { ("\($0)/state", "OFF") },
                                             start: false)
        defer { world.stopAll() }

        let check = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable, arguments: ["check", "--config", world.configPath],
            directory: world.directory.path, name: "check", environment: ["SB_E2E_TOKEN": "t", "PATH": "/usr/bin:/bin"])
        #expect(check.waitForExit(timeoutSeconds: 20) == 0, "\(check.stderr)")
        #expect(check.stdout.contains("1 widget(s), 2 action(s), 2 subscribed topic(s)"), "\(check.stdout)")

        let recorder = try MosquittoQoSRecorder(port: world.broker.port, topics: ["+/set"], directory: world.directory)
        try world.startBridge()
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("nfc") == false && world.publishedOn("nfd") == false },
                "both devices heard (both subscribed): \(world.log)")

        world.devices.publish("\(Self.decomposed)/state", "ON", retain: true)
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("nfd") == true }, "\(world.log)")
        #expect(world.publishedOn("nfc") == false, "the NFD device's state did not move the NFC tile")

        world.devices.publish("\(Self.composed)/state", "ON", retain: true)
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("nfc") == true }, "\(world.log)")

        _ = try world.press("nfd")
        let commandTopic = Array("\(Self.decomposed)/set".utf8)
        #expect(waitUntil(timeoutSeconds: 10) { recorder.records.contains { Array($0.topic.utf8) == commandTopic } }, "\(recorder.records)")
        #expect(!recorder.records.contains { Array($0.topic.utf8) == Array("\(Self.composed)/set".utf8) },
                "the press of nfd went to its own topic only: \(recorder.records)")
        recorder.stop()
    }
}
