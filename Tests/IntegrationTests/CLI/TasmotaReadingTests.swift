import Foundation
import Testing
import TestSupport

/// Issue 22 item 10, against the real binary: `check` refuses a Tasmota name that is
/// not the device's Topic (`stat/tasmota_A1B2C3` made `stat/stat/...`, `Terrace Plug`
/// has a space Tasmota turns into '_'), on its line with the fix; `watch` reads the
/// answer to `State` on `stat/T/STATE` and a blink (`{"POWER":"Blink ON"}`) as such.
@Suite("Tasmota names and readings (real binary)", .serialized)
struct TasmotaReadingTests {
    static func config(_ name: String, port: Int = 1883) -> String {
        """
        aivi:
          token_env: SB_TASMOTA_TOKEN
        mqtt:
          port: \(port)
        widgets:
          - slug: home
            actions:
              - id: terrace
                label: Terrace
                tasmota: \(name)
        """
    }

    /// `watch` for 30 s on `config`, written into `directory`.
    static func watch(_ config: String, in directory: TemporaryDirectory) throws -> ChildProcess {
        let path = directory.file("bridge.yaml")
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        return try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: ["watch", "--config", path, "--seconds", "30"],
                                directory: directory.path, name: "watch", environment: ["PATH": "/usr/bin:/bin"])
    }

    @Test(arguments: [
        ("stat/tasmota_A1B2C3", "names the device's Topic, without 'stat/' (the preset adds cmnd/, stat/ and tele/ itself): write 'tasmota_A1B2C3'"),
        ("Terrace Plug", "which has no spaces: Tasmota turns them into '_' (write 'Terrace_Plug' if that is its Topic"),
    ])
    func checkRefusesANameThatIsNotTheTopic(name: String, fix: String) throws {
        let directory = try TemporaryDirectory(prefix: "tasmota-check")
        defer { directory.remove() }
        let path = directory.file("bridge.yaml")
        try Self.config(name).write(toFile: path, atomically: true, encoding: .utf8)
        let check = try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: ["check", "--config", path],
                                     directory: directory.path, name: "check", environment: ["SB_TASMOTA_TOKEN": "t", "PATH": "/usr/bin:/bin"])
        #expect(check.waitForExit(timeoutSeconds: 20) == 1)
        #expect(check.stderr.contains("bridge.yaml:10:18: error: 'tasmota' in action 'terrace' "), "\(check.stderr)")
        #expect(check.stderr.contains(fix), "\(check.stderr)")
    }

    @Test func watchReadsStatStateAndABlink() throws {
        let directory = try TemporaryDirectory(prefix: "tasmota-watch")
        defer { directory.remove() }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let watch = try Self.watch(Self.config("terrace", port: broker.port), in: directory)
        defer { watch.stop() }
        #expect(waitUntil(timeoutSeconds: 10) { watch.stdout.contains("asking a device for its state") }, "\(watch.stdout)")
        // What a Tasmota 13 answers to `State` with SetOption4 (the tele/STATE object), then `Power BLINK`.
        let state = #"{"Time":"2024-02-24T22:20:38","Uptime":"0T00:10:11","UptimeSec":611,"Heap":24,"SleepMode":"Dynamic","Sleep":50,"LoadAvg":19,"MqttCount":1,"POWER":"OFF"}"#
        try MosquittoCLI.publish(port: broker.port, topic: "stat/terrace/STATE", payload: state, directory: directory)
        #expect(waitUntil(timeoutSeconds: 10) { watch.stdout.contains("home/terrace state stat/terrace/STATE") }, "\(watch.stdout)")
        try MosquittoCLI.publish(port: broker.port, topic: "stat/terrace/RESULT", payload: #"{"POWER":"Blink ON"}"#, directory: directory)
        #expect(waitUntil(timeoutSeconds: 10) { watch.stdout.contains(#"'{"POWER":"Blink ON"}' -> blinking"#) }, "\(watch.stdout)")
        #expect(watch.stdout.contains("-> off"), "\(watch.stdout)")
        #expect(!watch.stdout.contains("not understood"), "\(watch.stdout)")
    }

    /// Issue 22 item 10: two relays of one Tasmota as two tiles asked `POWER1` and
    /// `POWER2`; one `State` now, and its one answer (both relays) reads both tiles.
    @Test func watchAsksARelayStripOnceAndOneAnswerReadsEachRelay() throws {
        let directory = try TemporaryDirectory(prefix: "tasmota-strip")
        defer { directory.remove() }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let config = Self.config("strip", port: broker.port)
            + "\n        channel: 1\n      - id: lamp\n        label: Lamp\n        tasmota: strip\n        channel: 2\n"
        let watch = try Self.watch(config, in: directory)
        defer { watch.stop() }
        #expect(waitUntil(timeoutSeconds: 10) { watch.stdout.contains("asking a device for its state") }, "\(watch.stdout)\n\(watch.stderr)")
        // Tasmota's answer to State (SetOption4 off): stat/T/RESULT, every relay in it.
        let state = #"{"Time":"2024-02-24T22:20:38","Uptime":"0T00:10:11","UptimeSec":611,"Heap":24,"SleepMode":"Dynamic","Sleep":50,"LoadAvg":19,"MqttCount":1,"POWER1":"ON","POWER2":"OFF"}"#
        try MosquittoCLI.publish(port: broker.port, topic: "stat/strip/RESULT", payload: state, directory: directory)
        #expect(waitUntil(timeoutSeconds: 10) { watch.stdout.contains("home/lamp state stat/strip/RESULT") }, "\(watch.stdout)")
        let asked = watch.stdout.split(separator: "\n").filter { $0.hasPrefix("asking a device for its state") }
        #expect(asked == ["asking a device for its state: cmnd/strip/State '' (a state query, not a command)"], "\(watch.stdout)")
        #expect(watch.stdout.split(separator: "\n").contains { $0.contains("home/terrace state stat/strip/RESULT") && $0.hasSuffix("-> on") },
                "\(watch.stdout)")
        #expect(watch.stdout.split(separator: "\n").contains { $0.contains("home/lamp state stat/strip/RESULT") && $0.hasSuffix("-> off") },
                "\(watch.stdout)")
    }
}
