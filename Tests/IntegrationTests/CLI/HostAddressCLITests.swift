import Foundation
import Testing
import TestSupport

/// Issue 38 item 13 against the real binary: `check` and `run` read
/// `mqtt.host` with the one address parser (`HostAddress`), so `127.0.0.010`
/// (octal to getaddrinfo: 127.0.0.8) and `mqtt://127.0.0.1:1883` are refused on
/// their line with the fix, never connected to; `discover --mqtt-host` too.
@Suite("check, run and discover refuse an octal or URL broker host")
struct HostAddressCLITests {
    static func writeConfig(host: String, in directory: TemporaryDirectory) throws -> String {
        let text = FileCheckRun.config(aivi: ["token_env: AIVI_TOKEN"], mqtt: ["host: \"\(host)\"", "port: 9"],
                                       stateDir: directory.file("state"))
        let path = directory.file("bridge.yaml")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: [
        ("127.0.0.010", "has a number with a leading zero, which the resolver reads as octal (so it would connect to 127.0.0.8); write 127.0.0.10"),
        ("mqtt://127.0.0.1:1883", "is a URL: write the host alone, 127.0.0.1 (the port goes in 'port')"),
    ])
    func checkAndRunRefuseTheHostOnItsLine(host: String, fix: String) throws {
        let directory = try TemporaryDirectory(prefix: "host")
        let config = try Self.writeConfig(host: host, in: directory)
        let environment = ["AIVI_TOKEN": "test-token"]
        let (check, status) = try FileCheckRun.check(config: config, directory: directory.path, environment: environment)
        #expect(status != nil && status != 0, "\(check.stderr)")
        #expect(check.stderr.contains("bridge.yaml:4:9"), "\(check.stderr)")
        #expect(check.stderr.contains(fix), "\(check.stderr)")
        let run = try ChildProcess(executable: FileCheckRun.bridgeExecutable, arguments: ["run", "--config", config],
                                   directory: directory.path, name: "run", environment: environment)
        defer { run.stop() }
        let runStatus = run.waitForExit(timeoutSeconds: 20)
        #expect(runStatus != nil && runStatus != 0, "\(run.stderr)")
        #expect(run.stderr.contains(fix), "\(run.stderr)")
    }

    @Test func discoverRefusesAnOctalHost() throws {
        let directory = try TemporaryDirectory(prefix: "host")
        let discover = try ChildProcess(executable: FileCheckRun.bridgeExecutable,
                                        arguments: ["discover", "--mqtt-host", "127.0.0.010", "--output", directory.file("out.yaml")],
                                        directory: directory.path, name: "discover")
        defer { discover.stop() }
        let status = discover.waitForExit(timeoutSeconds: 20)
        #expect(status != nil && status != 0, "\(discover.stderr)")
        #expect(discover.stderr.contains("option --mqtt-host: '127.0.0.010' has a number with a leading zero"), "\(discover.stderr)")
        #expect(discover.stderr.contains("write 127.0.0.10"), "\(discover.stderr)")
    }
}
