import AiviSim
import BridgeCore
import CurlShell
@testable import BridgeDaemon
import Foundation
import Testing
import TestSupport

/// The bridge as systemd runs it: the notify protocol, and the sandbox of the unit.
@Suite("End to end: under systemd's rules", .serialized)
struct OperationsTests {
    @Test("sd_notify: STATUS and READY once published, WATCHDOG from the loop, RELOADING, STOPPING")
    func notifiesSystemd() throws {
        let world = try EndToEndHarness()
        let socketPath = world.directory.file("notify.sock")
        let receiver = try NotifyDatagramReceiver(address: .path(socketPath))
        try world.startBridge(environment: ["NOTIFY_SOCKET": socketPath, "WATCHDOG_USEC": "1000000"])
        var seen: [String] = []
        func receiveUntil(_ wanted: String) -> Bool {
            while let datagram = try? receiver.receive(deadlineMs: 5_000) {
                seen.append(datagram)
                if datagram.contains(wanted) { return true }
            }
            return false
        }
        #expect(receiveUntil("READY=1"), "\(seen)")
        #expect(seen.contains { $0.hasPrefix("STATUS=mqtt connected") } || receiveUntil("STATUS=mqtt connected"), "\(seen)")
        #expect(receiveUntil("WATCHDOG=1"), "\(seen)")
        world.bridge?.send(SIGHUP)
        #expect(receiveUntil("RELOADING=1"), "\(seen)")
        #expect(receiveUntil("READY=1"), "\(seen)")
        world.bridge?.send(SIGTERM)
        #expect(receiveUntil("STOPPING=1"), "\(seen)")
        #expect(world.bridge?.waitForExit(timeoutSeconds: 10) == 0)
    }

    /// The unit's restrictions that matter, reproduced without systemd: a
    /// read-only root, only the state directory writable, an unprivileged user,
    /// no new privileges.
    @Test("runs under the unit's sandbox: read-only root, only state_dir writable, nobody, no new privileges")
    func runsSandboxed() throws {
        guard access("/usr/bin/unshare", X_OK) == 0, access("/usr/bin/setpriv", X_OK) == 0, getuid() == 0 else {
            print("skipped: needs root, unshare and setpriv")
            return
        }
        let world = try EndToEndHarness()
        let state = world.directory.file("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        chown(state, 65_534, 65_534)
        chmod(world.directory.path, 0o755)
        chmod(world.configPath, 0o644)
        let script = """
        mount --bind "$1" "$1" && mount -o remount,bind,ro / && \
        exec setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs --inh-caps=-all --bounding-set=-all "${@:2}"
        """
        try world.startBridge(wrapper: ["/usr/bin/unshare", "--mount", "--propagation", "private",
                                        "/bin/bash", "-c", script, "sandbox", state])
        _ = try world.press("feed_cat")
        #expect(waitUntil(timeoutSeconds: 10) { world.devices.commands(on: "home/feeder/cmd").count == 1 })
        let stored = try String(contentsOfFile: state + "/" + EventIdStore.fileName, encoding: .utf8)
        #expect(stored.hasPrefix("{\"id\":\"evt_"))
        var info = stat()
        stat(state + "/" + EventIdStore.fileName, &info)
        #expect(info.st_uid == 65_534, "written by the unprivileged user")
        #expect(!world.log.contains("Read-only file system"))
    }
}

@Suite("End to end: the status endpoints over real HTTP", .serialized)
struct StatusEndpointTests {
    @Test func servesTheWidgetViewHealthAndMetrics() throws {
        let world = try EndToEndHarness()
        let port = try LoopbackPort.free()
        let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
            .replacingOccurrences(of: "state_dir:", with: "status: { listen: 127.0.0.1:\(port), path: /widget }\nstate_dir:")
        try config.write(toFile: world.configPath, atomically: true, encoding: .utf8)
        try world.startBridge()
        _ = try world.press("porch")
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("porch") == true })
        let base = "http://127.0.0.1:\(port)"
        let view = try HTTPGet.fetch(base + "/widget")
        #expect(view.status == 200)
        let envelope = try JSONValue.parse(view.body)
        #expect(WebhookWidgetEnvelope.validate(envelope).isEmpty)
        #expect(envelope["accessibility"]?.stringValue?.contains("Porch light on") == true)
        #expect(try HTTPGet.fetch(base + "/healthz").status == 200)
        let metrics = try HTTPGet.fetch(base + "/metrics").body
        #expect(metrics.contains("switchboard_bridge_presses_received_total 1"), "\(metrics)")
        #expect(try HTTPGet.fetch(base + "/nope").status == 404)
        world.simulator.dropEventStreams(.close)
        world.simulator.stop()
        #expect(waitUntil(timeoutSeconds: 10) { (try? HTTPGet.fetch(base + "/healthz").status) == 503 })
    }
}

/// Issue 22 item 5: a wrong API token left `systemctl status` at "stream disconnected";
/// only the journal said 401.
@Suite("End to end: a refused token is said where the owner looks", .serialized)
struct RefusedTokenTests {
    @Test func statusHealthzAndTheViewNameTheRefusedToken() throws {
        let world = try EndToEndHarness()
        let port = try LoopbackPort.free()
        let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
            .replacingOccurrences(of: "state_dir:", with: "status: { listen: 127.0.0.1:\(port), path: /widget }\nstate_dir:")
        try config.write(toFile: world.configPath, atomically: true, encoding: .utf8)
        let socketPath = world.directory.file("notify.sock")
        let receiver = try NotifyDatagramReceiver(address: .path(socketPath))
        try world.startBridge(waitForFirstPublish: false, environment: ["SB_E2E_TOKEN": "not-the-token", "NOTIFY_SOCKET": socketPath])
        let phrase = "token refused by the service (HTTP 401)"
        #expect(world.waitForLog("event stream: \(phrase)", timeoutSeconds: 15), "\(world.log)")
        let base = "http://127.0.0.1:\(port)"
        #expect(waitUntil(timeoutSeconds: 10) { (try? HTTPGet.fetch(base + "/healthz").body.contains(phrase)) == true },
                "\(String(describing: try? HTTPGet.fetch(base + "/healthz").body))")
        #expect(try HTTPGet.fetch(base + "/healthz").status == 503)
        #expect(try HTTPGet.fetch(base + "/widget").body.contains(phrase))
        var seen: [String] = []
        while !seen.contains(where: { $0.hasPrefix("STATUS=") && $0.contains(phrase) }),
              let datagram = try? receiver.receive(deadlineMs: 15_000) {
            seen.append(datagram)
        }
        #expect(seen.contains { $0.hasPrefix("STATUS=") && $0.contains(phrase) }, "\(seen)")
    }
}

/// A GET through the project's own libcurl shell, waited on with a deadline.
enum HTTPGet {
    struct Answer { var status: Int; var body: String }

    static func fetch(_ url: String) throws -> Answer {
        let client = try HTTPClient()
        defer { client.stop() }
        let box = Recorder<HTTPClientResult>()
        client.send(HTTPClientRequest(method: "GET", url: url)) { box.append($0) }
        guard waitUntil(timeoutSeconds: 10, { !box.values.isEmpty }), let result = box.values.first else {
            throw TestSupportError("no answer from \(url)")
        }
        switch result {
        case .response(let response): return Answer(status: response.status, body: String(decoding: response.body, as: UTF8.self))
        case .failure(let error): throw TestSupportError("\(url): \(error)")
        }
    }
}
