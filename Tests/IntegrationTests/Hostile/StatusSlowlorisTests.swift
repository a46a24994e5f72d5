import Foundation
import Testing
import TestSupport

/// Issue 12, item 5, against the real binary: 64 slowloris clients (reconnecting
/// as soon as they are closed, trickling one byte a second) do not keep
/// `/healthz` from answering; a stream of leading CRLFs is cut off.
@Suite("Status server under slowloris (real binary)", .serialized)
struct StatusSlowlorisTests {
    @Test func healthzAnswersWhile64SlowlorisClientsHoldConnections() throws {
        let port = try LoopbackPort.free()
        let world = try HostileWorld(script: [:], extraConfig: "status:\n  listen: 127.0.0.1:\(port)")
        try world.startBridge()
        #expect(world.waitForLog("published lights"), "\(world.log)")
        let attackers = try Slowloris.start(port: port, clients: 64)
        defer { attackers.stop() }
        #expect(waitUntil(timeoutSeconds: 10) { attackers.reported >= 32 })
        for _ in 0..<5 {
            let answer = try Self.curl("http://127.0.0.1:\(port)/healthz")
            #expect(answer.hasPrefix("200"), "\(answer)")
        }
        #expect(world.isBridgeRunning)
    }

    @Test func leadingCRLFsForEverAreCutOff() throws {
        let port = try LoopbackPort.free()
        let world = try HostileWorld(script: [:], extraConfig: "status:\n  listen: 127.0.0.1:\(port)")
        try world.startBridge()
        #expect(world.waitForLog("published lights"), "\(world.log)")
        let answer = try Self.run(["/usr/bin/python3", "-c", """
            import socket, sys
            s = socket.create_connection(('127.0.0.1', \(port)))
            s.settimeout(10)
            sent = 0
            try:
                while sent < 10_000_000:
                    s.sendall(b'\\r\\n' * 1024)
                    sent += 2048
            except OSError:
                pass
            data = b''
            try:
                data = s.recv(100)
            except OSError:
                pass
            print(sent, data[:12].decode(errors='replace'))
            """])
        let parts = answer.split(separator: " ", maxSplits: 1)
        #expect((Int(parts.first ?? "") ?? .max) < 10_000_000, "the server kept reading: \(answer)")
    }

    static func curl(_ url: String) throws -> String {
        try run(["/usr/bin/curl", "-s", "--max-time", "5", "-o", "/dev/null", "-w", "%{http_code}", url])
    }

    static func run(_ command: [String]) throws -> String {
        let directory = try TemporaryDirectory(prefix: "run")
        defer { directory.remove() }
        let process = try ChildProcess(executable: command[0], arguments: Array(command.dropFirst()), directory: directory.path, name: "cmd")
        _ = process.waitForExit(timeoutSeconds: 20)
        return process.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Slowloris clients (python3): each sends part of a request head, then one byte a
/// second, and reconnects at once when the server closes it.
enum Slowloris {
    /// Runs as `script PORT COUNT REPORT_FILE` (see `StatusClientScript`).
    static func start(port: Int, clients: Int) throws -> StatusClientScript {
        try StatusClientScript(name: "slowloris", python: python, port: port, clients: clients)
    }

    static let python = """
    import os, select, socket, sys, time
    port, count, status = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    def opened():
        s = socket.create_connection(('127.0.0.1', port))
        s.sendall(b'GET /healthz HTTP/1.1\\r\\nX-a: ')
        return s
    socks = [opened() for _ in range(count)]
    while True:
        for i, s in enumerate(socks):
            try:
                readable, _, _ = select.select([s], [], [], 0)
                if readable and not s.recv(4096, socket.MSG_DONTWAIT):
                    raise OSError('closed')
                s.send(b'x')
            except OSError:
                s.close()
                socks[i] = opened()
        with open(status + '.tmp', 'w') as f:
            f.write(str(len(socks)))
        os.replace(status + '.tmp', status)
        time.sleep(1)
    """
}
