import Foundation
import Testing
import TestSupport

/// The daemon's threads, counted in /proc/PID/task of the real binary (issue 23, one loop).
@Suite("Threads of the running daemon (real binary)")
struct ThreadCountTests {
    /// The live threads of `pid`.
    static func threadCount(_ pid: pid_t) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
    }

    /// MQTT, the signals, the event stream and the PATCHes run on the loop that owns the
    /// core (libcurl's multi interface): no MQTT, signal, stream or HTTP thread; the loop
    /// alone. Was 5 with libmosquitto driven from a thread of its own, 4 with a thread
    /// waiting in sigwait, 3 with libcurl's stream and PATCHes on threads of their own.
    /// The broker and the service are named `localhost`, not literal addresses: a
    /// resolver's thread (libmosquitto's blocking lookup runs on a short-lived helper,
    /// libcurl may resolve on a thread) that outlived its lookup would be counted.
    @Test func idleWithMQTTAndTheStreamUpTheDaemonRunsOneThread() throws {
        let world = try EndToEndHarness()
        defer { world.stopAll() }
        try world.nameHostsLocalhost()
        try world.startBridge()
        let bridge = try #require(world.bridge)
        #expect(world.waitForLog("mqtt connected"))
        #expect(world.waitForLog("event stream connected"))
        // A PATCH went out and was answered on the kept-alive connection.
        #expect(waitUntil(timeoutSeconds: 10) { !world.simulator.history(slug: EndToEndHarness.widget).isEmpty })
        // Counted a few times over a quiet moment: a thread that came and went would show.
        var counts: [Int] = []
        _ = waitUntil(timeoutSeconds: 2) {
            counts.append(Self.threadCount(bridge.pid))
            return counts.count >= 20
        }
        #expect(counts.allSatisfy { $0 == 1 }, "threads: \(counts)")
    }

    /// The status server runs on the same loop: no listener thread, no thread per
    /// connection. With 10 status connections open (each answered once and kept
    /// alive) the daemon runs as many threads as with none. Was 4 at idle with the
    /// listener on (the loop, the stream, the PATCHes, the accept thread) and 14 with
    /// 10 connections (one thread each); with libcurl on the loop too, the loop alone.
    @Test func tenOpenStatusConnectionsAddNoThread() throws {
        let port = try LoopbackPort.free()
        let world = try HostileWorld(script: [:], extraConfig: "status:\n  listen: 127.0.0.1:\(port)")
        defer { world.stopAll() }
        try world.startBridge()
        let bridge = try #require(world.bridge)
        #expect(world.waitForLog("published lights"), "\(world.log)")
        let idle = Self.steadyCounts(bridge.pid)
        let clients = try KeptAliveStatusClients.start(port: port, clients: 10)
        defer { clients.stop() }
        #expect(waitUntil(timeoutSeconds: 10) { clients.reported == 10 }, "answered: \(clients.reported)")
        let withTen = Self.steadyCounts(bridge.pid)
        #expect(idle.allSatisfy { $0 == 1 }, "idle threads: \(idle)")
        #expect(withTen.allSatisfy { $0 > 0 && $0 <= (idle.max() ?? 0) }, "idle: \(idle), with 10 connections: \(withTen)")
        #expect(world.isBridgeRunning)
    }

    /// Thread counts over a quiet moment: a thread that came and went would show.
    private static func steadyCounts(_ pid: pid_t) -> [Int] {
        var counts: [Int] = []
        _ = waitUntil(timeoutSeconds: 2) {
            counts.append(threadCount(pid))
            return counts.count >= 20
        }
        return counts
    }
}

extension EndToEndHarness {
    /// Rewrites the config so the bridge reaches the broker and the service by the name
    /// `localhost` (looked up at connect) instead of the literal 127.0.0.1.
    func nameHostsLocalhost() throws {
        let literal = try String(contentsOfFile: configPath, encoding: .utf8)
        let named = literal.replacingOccurrences(of: "host: 127.0.0.1\n", with: "host: localhost\n")
            .replacingOccurrences(of: "api: http://127.0.0.1:", with: "api: http://localhost:")
        #expect(!named.contains("127.0.0.1") && named.components(separatedBy: "localhost").count == 3, "\(named)")
        try named.write(toFile: configPath, atomically: true, encoding: .utf8)
    }
}

/// `count` clients of the status server, each sending one keep-alive request,
/// reading its answer and then holding the connection open until stopped.
enum KeptAliveStatusClients {
    /// Runs as `script PORT COUNT REPORT_FILE` (see `StatusClientScript`).
    static func start(port: Int, clients: Int) throws -> StatusClientScript {
        try StatusClientScript(name: "keptalive", python: python, port: port, clients: clients)
    }

    static let python = """
    import os, socket, sys, time
    port, count, status = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    socks, answered = [], 0
    for _ in range(count):
        s = socket.create_connection(('127.0.0.1', port))
        s.settimeout(10)
        s.sendall(b'GET /healthz HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n')
        data = b''
        while b'\\r\\n\\r\\n' not in data:
            data += s.recv(4096)
        if data.startswith(b'HTTP/1.1 '):
            answered += 1
        socks.append(s)
    with open(status + '.tmp', 'w') as f:
        f.write(str(answered))
    os.replace(status + '.tmp', status)
    while True:
        time.sleep(1)
    """
}
