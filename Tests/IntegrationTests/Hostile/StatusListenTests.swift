import Foundation
import Testing
import TestSupport

/// Issue 12, item 6, against the real binary: whatever `check` accepts for
/// `status.listen` binds at run time, and a non-loopback address is warned
/// about by `check` and at start.
@Suite("Status listen address (real binary)", .serialized)
struct StatusListenTests {
    @Test func localhostPassesCheckAndBinds() throws {
        let port = try LoopbackPort.free()
        let world = try HostileWorld(script: [:], extraConfig: "status:\n  listen: localhost:\(port)")
        let check = try Self.check(world)
        #expect(check.status == 0, "\(check.output)")
        try world.startBridge()
        #expect(world.waitForLog("published lights"), "\(world.log)")
        #expect(try StatusSlowlorisTests.curl("http://127.0.0.1:\(port)/healthz") == "200", "\(world.log)")
    }

    @Test func aNonLoopbackAddressIsWarnedAboutByCheckAndAtStart() throws {
        let port = try LoopbackPort.free()
        let world = try HostileWorld(script: [:], extraConfig: "status:\n  listen: 0.0.0.0:\(port)")
        let check = try Self.check(world)
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("no authentication"), "\(check.output)")
        try world.startBridge()
        #expect(world.waitForLog("no authentication"), "\(world.log)")
    }

    @Test(arguments: ["myhost:8787", "127.0.0.01:8787", "[:::]:8787"])
    func whatCannotBindIsRefusedByCheck(listen: String) throws {
        let world = try HostileWorld(script: [:], extraConfig: "status:\n  listen: \"\(listen)\"")
        let check = try Self.check(world)
        #expect(check.status != 0, "\(check.output)")
        #expect(check.output.contains("'listen' in 'status' must be HOST:PORT"), "\(check.output)")
    }

    /// Issue 38 item 9: a browser page on another name (DNS rebinding) gets 421,
    /// with no state in the answer; loopback names and literals are served.
    @Test func anotherHostNameIsRefused() throws {
        let port = try LoopbackPort.free()
        let world = try HostileWorld(script: [:], extraConfig: "status:\n  listen: 127.0.0.1:\(port)")
        try world.startBridge()
        #expect(world.waitForLog("published lights"), "\(world.log)")
        let url = "http://127.0.0.1:\(port)/"
        func code(_ host: String) throws -> String {
            try StatusSlowlorisTests.run(["/usr/bin/curl", "-s", "--max-time", "5", "-o", "/dev/null", "-w", "%{http_code}",
                                          "-H", "Host: \(host)", url])
        }
        #expect(try code("rebound.example:\(port)") == "421", "\(world.log)")
        #expect(try code("rebound.example") == "421")
        let body = try StatusSlowlorisTests.run(["/usr/bin/curl", "-s", "--max-time", "5", "-H", "Host: rebound.example",
                                                 "http://127.0.0.1:\(port)/widget"])
        #expect(!body.contains("lights"), "\(body)")
        #expect(try code("localhost:\(port)") == "200")
        #expect(try code("127.0.0.1:\(port)") == "200")
    }

    static func check(_ world: HostileWorld) throws -> (status: Int32, output: String) {
        let process = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable, arguments: ["check", "--config", world.configPath],
            directory: world.directory.path, name: "check-\(UUID().uuidString)",
            environment: ["SB_HOSTILE_TOKEN": HostileWorld.token, "PATH": "/usr/bin:/bin"])
        let status = process.waitForExit(timeoutSeconds: 20) ?? -1
        return (status, process.stdout + process.stderr)
    }
}
