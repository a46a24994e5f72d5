import Foundation
import Testing
import TestSupport

/// `switchboard-bridge watch` as a homeowner runs it: the real binary against a
/// real broker, devices speaking, its output (for people and `--json`), its exit
/// code, and that it never sends a command.
@Suite("watch: what each device says and what the bridge reads", .serialized)
struct WatchCommandTests {
    static let commandTopics = ["zigbee2mqtt/porch/set", "cmnd/plug/POWER", "cmnd/plug/State", "kitchen/command/switch:0", "kitchen/command",
                                "zigbee2mqtt/porch/get", "test/bridge/status"]

    static func config(port: Int) -> String {
        """
        aivi:
          token_env: NOT_NEEDED_BY_WATCH
        mqtt:
          host: 127.0.0.1
          port: \(port)
          client_id: bridge-under-test
          status_topic: test/bridge/status
        widgets:
          - slug: home
            actions:
              - id: porch
                label: Porch
                zigbee2mqtt: porch
              - id: plug
                label: Plug
                tasmota: plug
              - id: kitchen
                label: Kitchen
                shelly_plus: kitchen
        """
    }

    final class World {
        let directory: TemporaryDirectory
        let broker: MosquittoBroker
        let configPath: String

        init() throws {
            directory = try TemporaryDirectory(prefix: "watch")
            broker = try MosquittoBroker()
            configPath = directory.file("bridge.yaml")
            try WatchCommandTests.config(port: broker.port).write(toFile: configPath, atomically: true, encoding: .utf8)
        }

        func publish(_ topic: String, _ payload: String, retain: Bool = false) throws {
            try MosquittoCLI.publish(port: broker.port, topic: topic, payload: payload, retain: retain, directory: directory)
        }

        /// Starts `watch` with no environment but PATH (no token anywhere).
        func watch(_ extra: [String]) throws -> ChildProcess {
            try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: ["watch", "--config", configPath] + extra,
                             directory: directory.path, name: "watch-\(UUID().uuidString)", environment: ["PATH": "/usr/bin:/bin"])
        }
    }

    /// Runs `watch` while the devices speak: a retained state before, a live
    /// unreadable payload and a live JSON answer during.
    func runWatch(_ world: World, json: Bool) throws -> (ChildProcess, MosquittoQoSRecorder) {
        try world.publish("zigbee2mqtt/porch", #"{"color_mode":"xy","color":{"x":100,"y":50},"state":"ON"}"#, retain: true)
        try world.publish("zigbee2mqtt/bridge/state", #"{"state":"online"}"#, retain: true)
        let recorder = try MosquittoQoSRecorder(port: world.broker.port, topics: Self.commandTopics, directory: world.directory)
        let watch = try world.watch(["--seconds", "4"] + (json ? ["--json"] : []))
        let subscribed = waitUntil(timeoutSeconds: 10) { watch.stdout.contains("zigbee2mqtt/porch") && watch.stdout.contains("bridge/state") }
        #expect(subscribed, "\(watch.stdout)\(watch.stderr)")
        try world.publish("stat/plug/POWER", "maybe")
        try world.publish("stat/plug/RESULT", #"{"POWER1":"ON"}"#)
        #expect(watch.waitForExit(timeoutSeconds: 15) == 0, "\(watch.stderr)")
        return (watch, recorder)
    }

    @Test func humanOutputExplainsEachMessageAndEndsWithATable() throws {
        let world = try World()
        let (watch, recorder) = try runWatch(world, json: false)
        let lines = watch.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "watching 13 topic(s) of \(world.configPath) on 127.0.0.1:\(world.broker.port) for 4 s; no command is sent")
        #expect(lines.contains("asking a device for its state: cmnd/plug/State '' (a state query, not a command)"))
        #expect(lines.contains { $0.hasSuffix(#"home/porch state zigbee2mqtt/porch '{"color_mode":"xy","color":{"x":100,"y":50},"state":"ON"}' -> on"#) })
        #expect(lines.contains { $0.hasSuffix(#"home/porch gateway zigbee2mqtt/bridge/state '{"state":"online"}' -> available"#) })
        #expect(lines.contains { $0.hasSuffix("home/plug state stat/plug/POWER 'maybe' -> not understood (expected 'ON' or 'OFF', or JSON with field 'POWER')") })
        #expect(lines.contains { $0.hasSuffix(#"home/plug state stat/plug/RESULT '{"POWER1":"ON"}' -> on"#) })
        let table = Array(lines.drop { !$0.hasPrefix("action ") })
        #expect(table == [
            "action        state    messages",
            "home/porch    on       1",
            "home/plug     on       2         last problem: expected 'ON' or 'OFF', or JSON with field 'POWER'",
            "home/kitchen  unknown  0         never heard from",
        ])
        try expectNoCommand(recorder)
    }

    @Test func jsonOutputIsOneObjectPerLine() throws {
        let world = try World()
        let (watch, recorder) = try runWatch(world, json: true)
        let objects = try watch.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let porch = objects.first { $0["type"] as? String == "message" && $0["topic"] as? String == "zigbee2mqtt/porch" }
        #expect(porch?["action"] as? String == "porch")
        #expect(porch?["reading"] as? String == "on")
        let unreadable = objects.first { $0["type"] as? String == "message" && $0["payload"] as? String == "maybe" }
        #expect(unreadable?["reading"] as? String == "not understood")
        #expect(unreadable?["why"] as? String == "expected 'ON' or 'OFF', or JSON with field 'POWER'")
        let summaries = objects.filter { $0["type"] as? String == "summary" }
        #expect(summaries.map { $0["action"] as? String } == ["porch", "plug", "kitchen"])
        #expect(summaries.map { $0["state"] as? String } == ["on", "on", "unknown"])
        #expect(summaries.map { $0["never_heard_from"] as? Bool } == [false, false, true])
        #expect(objects.filter { $0["type"] as? String == "state_query" }.count == 3)
        try expectNoCommand(recorder)
    }

    /// Only the presets' state queries went out: no on/off command, no status.
    func expectNoCommand(_ recorder: MosquittoQoSRecorder) throws {
        let sent = recorder.records.map { "\($0.topic) \($0.payload)" }.sorted()
        #expect(sent == ["cmnd/plug/State ", "kitchen/command status_update", #"zigbee2mqtt/porch/get {"state":""}"#])
    }

    /// Issue 22 item 4: `check --mqtt` connects to the config's broker once the config
    /// passes and says which actions' devices it hears, as watch's table (no line per
    /// message, no command); a broker never reached is an error exit.
    @Test func checkMQTTSaysWhichDevicesItHears() throws {
        let world = try World()
        try world.publish("zigbee2mqtt/porch", #"{"state":"ON"}"#, retain: true)
        try world.publish("zigbee2mqtt/bridge/state", #"{"state":"online"}"#, retain: true)
        let path = world.directory.file("check.yaml")
        try ("state_dir: \(world.directory.path)\n" + Self.config(port: world.broker.port)).write(toFile: path, atomically: true, encoding: .utf8)
        let check = { (name: String) throws -> ChildProcess in
            try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: ["check", "--config", path, "--mqtt", "--seconds", "2"],
                             directory: world.directory.path, name: name,
                             environment: ["PATH": "/usr/bin:/bin", "NOT_NEEDED_BY_WATCH": "a-token"])
        }
        let heard = try check("check-mqtt")
        #expect(heard.waitForExit(timeoutSeconds: 30) == 0, "\(heard.stdout)\n\(heard.stderr)")
        let lines = heard.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("config ok") }, "\(heard.stdout)")
        #expect(lines.contains("mqtt: listening 2 s on 127.0.0.1:\(world.broker.port) to the 13 topic(s) of the config "
                               + "(the presets' state queries sent, no command)"), "\(heard.stdout)")
        #expect(lines.contains { $0.hasPrefix("home/porch ") && $0.contains(" on ") && !$0.contains("never heard from") }, "\(heard.stdout)")
        #expect(lines.contains { $0.hasPrefix("home/kitchen ") && $0.contains("never heard from") }, "\(heard.stdout)")
        #expect(!heard.stdout.contains("-> on") && !heard.stdout.contains("asking a device"), "no line per message: \(heard.stdout)")

        world.broker.stop()
        let unreachable = try check("check-mqtt-down")
        #expect(unreachable.waitForExit(timeoutSeconds: 30) == 1)
        #expect(unreachable.stderr.contains("check: never connected to the broker 127.0.0.1:\(world.broker.port)"), "\(unreachable.stderr)")
    }

    @Test func anUnreachableBrokerIsAnErrorExit() throws {
        let world = try World()
        world.broker.stop()
        let watch = try world.watch(["--seconds", "1"])
        #expect(watch.waitForExit(timeoutSeconds: 15) == 1)
        #expect(watch.stderr.contains("never connected to the broker 127.0.0.1:\(world.broker.port)"))
        #expect(watch.stdout.contains("home/kitchen  unknown  0         never heard from"))
    }

    @Test func ctrlCEndsWithTheTable() throws {
        let world = try World()
        let watch = try world.watch([])
        #expect(waitUntil(timeoutSeconds: 10) { watch.stdout.contains("asking a device") })
        watch.send(SIGINT)
        #expect(watch.waitForExit(timeoutSeconds: 10) == 0)
        #expect(watch.stdout.contains("home/porch    unknown  0         never heard from"))
    }
}
