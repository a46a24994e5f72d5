import BridgeCore
@testable import BridgeDaemon
import Foundation
import MQTTShell
import Testing
import TestSupport

/// Issue 12, item 8: the id file of presses not safe to repeat, against the
/// real binary, a real broker and a hostile stand-in for the service.
@Suite("The id file under hostile event ids (real binary)", .serialized)
struct EventIdFileHostileTests {
    static let token = "id-file-test-token"
    /// The unsafe presses go round-robin to this many feeders, 20 each at most for the
    /// 2,000 presses: under each action's own limit of commands (a burst of 24).
    static let feederCount = 100

    /// The real bridge between a broker, a hostile service and a recorder of commands.
    final class World: @unchecked Sendable {
        let directory: TemporaryDirectory
        let broker: MosquittoBroker
        let server: HostileAiviServer
        let recorder: MQTTClient
        let commands = Recorder<String>()
        let configPath: String
        var stateDirectory: String { directory.file("state") }
        private(set) var bridges: [ChildProcess] = []

        init() throws {
            directory = try TemporaryDirectory(prefix: "idfile")
            broker = try MosquittoBroker()
            server = try HostileAiviServer(script: ["events_body": "", "events_hold_s": 0])
            configPath = directory.file("bridge.yaml")
            try """
            aivi:
              api: \(server.baseURL)
              token_env: SB_IDFILE_TOKEN
            mqtt:
              host: 127.0.0.1
              port: \(broker.port)
              client_id: bridge-idfile
            state_dir: \(directory.file("state"))
            timing:
              settle_window_ms: 100
              stop_grace_ms: 1000
            widgets:
              - slug: feeder
                actions:
                  - id: feed
                    label: Feed
                    repeat_safe: false
                    publish: { topic: home/feeder/cmd, payload: dispense }
            \((0..<EventIdFileHostileTests.feederCount).map { """
                  - id: feed\($0)
                    label: Feed \($0)
                    repeat_safe: false
                    publish: { topic: home/feeder/\($0)/cmd, payload: dispense }
            """ }.joined(separator: "\n"))
                  - id: mark
                    label: Mark
                    publish: { topic: home/mark, payload: go }
            """.write(toFile: configPath, atomically: true, encoding: .utf8)
            let commands = commands
            recorder = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: broker.port, clientId: "idfile-recorder")) { event in
                if case .message(let message) = event { commands.append(message.topic) }
            }
            try recorder.setSubscriptions(["home/feeder/cmd", "home/feeder/+/cmd", "home/mark"])
            try recorder.start()
            guard waitUntil(timeoutSeconds: 10, { recorder.isConnected }) else { throw TestSupportError("recorder did not connect") }
        }

        deinit {
            bridges.forEach { $0.stop() }
            recorder.stop()
            server.stop()
            broker.stop()
            directory.remove()
        }

        func startBridge() throws -> ChildProcess {
            let bridge = try ChildProcess(
                executable: EndToEndHarness.bridgeExecutable,
                arguments: ["run", "--config", configPath, "--log-level", "debug"],
                directory: directory.path, name: "bridge-\(bridges.count + 1)",
                environment: ["SB_IDFILE_TOKEN": EventIdFileHostileTests.token, "PATH": "/usr/bin:/bin"])
            bridges.append(bridge)
            return bridge
        }

        func count(_ topic: String) -> Int { commands.values.filter { $0 == topic }.count }

        /// Commands to the feeders: each has its own command topic, so the per-topic
        /// command limit (issue 38 item 12: 24, then 2 a second) never holds one back.
        var feederCommands: Int { commands.values.filter { $0.hasPrefix("home/feeder/") }.count }
    }

    static func frame(id: String, action: String, expiresAt: String, createdAt: String) -> String {
        let data = "{\"id\":\"\(id)\",\"type\":\"widget.action.v1\",\"created_at\":\"\(createdAt)\",\"expires_at\":\"\(expiresAt)\","
            + "\"data\":{\"widget\":\"feeder\",\"action\":\"\(action)\",\"kind\":\"button\"}}"
        return "id: \(id)\nevent: widget.action.v1\ndata: \(data)\n\n"
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// `partCount` parts of `partSize` unsafe presses with ids of the longest accepted length
    /// (and now and then an absurd 60 KB id), each part ending with a repeat-safe "mark" press
    /// the test waits for.
    static func parts(partCount: Int, partSize: Int) -> [String] {
        let created = timestamp(Date())
        // A press may claim at most 60 s of life (issue 38 item 4); the replay is made anew
        // (same ids, fresh times) so only the id file can stop it, not its expiry.
        let expires = timestamp(Date().addingTimeInterval(55))
        return (0..<partCount).map { part in
            var text = ""
            for offset in 0..<partSize {
                let index = part * partSize + offset
                let prefix = "evt_\(index)_"
                let id = prefix + String(repeating: "x", count: PressEnvelope.maxIdBytes - prefix.utf8.count)
                text += frame(id: id, action: "feed\(index % feederCount)", expiresAt: expires, createdAt: created)
                if index % 500 == 0 {
                    // An absurd id (60 KB, as in the review): refused, never run, never written.
                    let absurd = "evt_absurd_\(index)_" + String(repeating: "y", count: 60_000)
                    text += frame(id: absurd, action: "feed", expiresAt: expires, createdAt: created)
                }
            }
            return text + frame(id: "evt_mark_\(part)", action: "mark", expiresAt: expires, createdAt: created)
        }
    }

    /// Releases the parts one by one, each once the bridge has handled the one before (its
    /// mark press reached MQTT), so no press of a part is dropped by the runtime inbox
    /// (1,024 inputs): a dropped press is rightly run by the replay, which this test could not
    /// tell from a double run.
    static func deliver(_ parts: [String], to world: World, bridge: ChildProcess, marksBefore: Int) throws {
        for released in 1...parts.count {
            try world.server.setScript(["events_body": "", "events_hold_s": 600,
                                        "events_more": parts, "events_release": released])
            let marks = marksBefore + released
            #expect(waitUntil(timeoutSeconds: 120) { world.count("home/mark") >= marks || !bridge.isRunning },
                    "part \(released): \(world.feederCommands) commands; \(bridge.stderr.suffix(2_000))")
        }
    }

    @Test("2,000 unsafe presses with the longest ids accepted, 4 absurd ids (one warning), kill -9, restart: every replay dropped")
    func replaysAfterKillAreDropped() throws {
        let world = try World()
        let unsafeCount = 2_000
        let parts = Self.parts(partCount: 4, partSize: unsafeCount / 4)
        try world.server.setScript(["events_body": "", "events_hold_s": 600, "events_more": parts, "events_release": 0])

        let first = try world.startBridge()
        #expect(waitUntil(timeoutSeconds: 30) { first.stderr.contains("mqtt connected") })
        try Self.deliver(parts, to: world, bridge: first, marksBefore: 0)
        // The mark (safe) no longer waits behind the feeders' syncs (issue 38 item 8): wait for them.
        #expect(waitUntil(timeoutSeconds: 60) { world.feederCommands >= unsafeCount })
        #expect(world.feederCommands == unsafeCount)
        let warnings = first.stderr.split(separator: "\n").filter { $0.contains(" warning skipping an event whose id is") }
        #expect(warnings.count == 1, "\(warnings.prefix(3))")
        let path = world.stateDirectory + "/" + EventIdStore.fileName
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
        #expect(size > 0 && size <= EventIdStore.maxFileBytes, "id file of \(size) bytes")

        first.kill9()
        let replay = Self.parts(partCount: 4, partSize: unsafeCount / 4)
        try world.server.setScript(["events_body": "", "events_hold_s": 600, "events_more": replay, "events_release": 0])
        let second = try world.startBridge()
        // The new process opens the stream without Last-Event-ID: the service replays every press.
        #expect(waitUntil(timeoutSeconds: 30) { second.stderr.contains("mqtt connected") })
        try Self.deliver(replay, to: world, bridge: second, marksBefore: parts.count)
        // The marks are safe presses: they overtake the unsafe ones' records (issue 38 item
        // 8), so a replay run twice may still be syncing when the last mark arrives. A last
        // unsafe press, new ("feed", its own topic), does not overtake them: the core asks
        // for its record after every replay's (it handled them before its mark), the
        // syncing thread finishes records in the order asked, the core publishes a press
        // once its record is durable, and the bridge's one MQTT connection and the broker
        // keep that order to the recorder. So once its command has arrived, the command of
        // any replay run twice has too: no window of wall clock to wait out.
        let sentinel = Self.frame(id: "evt_sentinel", action: "feed", expiresAt: Self.timestamp(Date().addingTimeInterval(55)),
                                  createdAt: Self.timestamp(Date()))
        try world.server.setScript(["events_body": "", "events_hold_s": 600, "events_more": replay + [sentinel],
                                    "events_release": replay.count + 1])
        #expect(waitUntil(timeoutSeconds: 60) { world.count("home/feeder/cmd") >= 1 || !second.isRunning },
                "the last unsafe press: \(second.stderr.suffix(2_000))")
        #expect(world.count("home/feeder/cmd") == 1)
        #expect(world.feederCommands == unsafeCount + 1, "an unsafe press ran twice: \(world.feederCommands - 1) commands")
        #expect(!second.stderr.contains("was damaged"), "\(second.stderr.prefix(2_000))")
        #expect(!second.stderr.contains("cannot read"), "\(second.stderr.prefix(2_000))")
        second.stop()
    }

    @Test("a state directory the bridge cannot write in stops the start when an action is not safe to repeat")
    func unwritableStateDirectoryIsFoundAtStart() throws {
        let world = try World()
        // A file where the directory should be: mkdir says it exists, nothing can be written in it
        // (the same for root, unlike permission bits).
        try "not a directory".write(toFile: world.stateDirectory, atomically: true, encoding: .utf8)
        let bridge = try world.startBridge()
        #expect(bridge.waitForExit(timeoutSeconds: 30) == 1)
        #expect(bridge.stderr.contains("state directory: cannot write in"), "\(bridge.stderr)")
    }
}
