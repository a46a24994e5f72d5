import Foundation
import Testing
import TestSupport

/// Issue 19 item 16, against the real binary: clients that pipeline requests and never
/// read their answers left every connection blocked in `send` (up to the write
/// timeout), which did not count as idle, so `/healthz` failed (the review: 13 of 47
/// probes; this test before the fix: 22 of 47, empty replies and 503s). A connection
/// whose client does not read (an answer blocked in `send`, or pipelined requests) is
/// now evicted first, before one waiting for its first request (the probe).
@Suite("Status server under pipelining clients that never read (real binary)", .serialized)
struct StatusPipeliningTests {
    @Test func healthzAnswersWhile40ClientsPipelineWithoutReading() throws {
        let port = try LoopbackPort.free()
        let world = try HostileWorld(script: [:], extraConfig: "status:\n  listen: 127.0.0.1:\(port)")
        try world.startBridge()
        #expect(world.waitForLog("published lights"), "\(world.log)")
        let attackers = try PipeliningClients.start(port: port, clients: 40)
        defer { attackers.stop() }
        // Stalled: the server stopped reading their requests because its answers do not fit.
        #expect(waitUntil(timeoutSeconds: 20) { attackers.reported >= 32 }, "stalled: \(attackers.reported)")
        var answers: [String] = []
        let probe = "curl -sS --max-time 5 -o /dev/null -w %{http_code} http://127.0.0.1:\(port)/healthz 2>&1"
        for _ in 0..<47 { answers.append(try StatusSlowlorisTests.run(["/bin/bash", "-c", probe])) }
        #expect(answers.allSatisfy { $0 == "200" }, "\(answers.filter { $0 != "200" }.count) of 47 probes failed: \(answers)")
        #expect(world.isBridgeRunning)
    }
}

/// Clients (python3) that each write as many pipelined `GET /metrics` as the socket
/// takes without blocking (with a Host the server answers, so each gets the metrics,
/// not the small 421 of a foreign name, and its answers stop fitting), with a tiny receive buffer, and never read; a client the
/// server closes reconnects at once. `stalled` counts those whose writes no longer fit.
enum PipeliningClients {
    /// Runs as `script PORT COUNT REPORT_FILE` (see `StatusClientScript`).
    static func start(port: Int, clients: Int) throws -> StatusClientScript {
        try StatusClientScript(name: "pipelining", python: python, port: port, clients: clients)
    }

    static let python = """
    import errno, os, socket, sys, time
    port, count, status = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    request = b'GET /metrics HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n' * 4096
    def opened():
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        s.connect(('127.0.0.1', port))
        s.setblocking(False)
        return [s, False]
    clients = [opened() for _ in range(count)]
    while True:
        for client in clients:
            s = client[0]
            try:
                client[1] = s.send(request) < len(request)
            except BlockingIOError:
                client[1] = True
            except OSError:
                s.close()
                client[:] = opened()
        with open(status + '.tmp', 'w') as f:
            f.write(str(sum(1 for c in clients if c[1])))
        os.replace(status + '.tmp', status)
        time.sleep(0.05)
    """
}
