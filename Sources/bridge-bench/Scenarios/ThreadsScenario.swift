import Glibc
import ShellSupport

/// Threads with the status listener on (issue 23: "≤ 2, constant"): a fresh
/// bridge with `status: listen` on a free loopback port, its threads counted
/// at idle, then with `connectionCount` status connections open, each kept
/// alive after one `GET /` was answered (an open status page between polls).
/// The most threads seen over `readings` readings `readingGapMs` apart.
enum ThreadsScenario {
    static let connectionCount = 10
    static let readings = 20
    static let readingGapMs = 50
    /// The most bytes read of one answer (only its start is needed: it was answered).
    static let answerBytes = 64 * 1024

    static func run(_ rig: BenchRig, bridgeExecutable: String, table: inout ResultTable) throws {
        guard let port = LoopbackPort.free() else { throw BenchFailure("no free loopback port for the status listener") }
        try rig.spawnBridge(executable: bridgeExecutable, run: "-status", statusPort: port)
        defer { rig.stopBridge() }
        try rig.waitUntilStarted()
        guard LoopbackPort.waitUntilAccepting(port: port, timeoutMs: 10_000), let stats = rig.bridgeStats else {
            throw BenchFailure("the status listener on 127.0.0.1:\(port) does not accept (see \(rig.bridgeLogPath))")
        }
        _ = rig.recorder.waitUntilQuiet(quietMs: 500, timeoutMs: 10_000)
        let idle = mostThreads(stats)
        var connections: [Int32] = []
        defer { for connection in connections { close(connection) } }
        for _ in 0..<connectionCount {
            guard let connection = LoopbackPort.connected(port: port) else { throw BenchFailure("the status listener refused a connection") }
            connections.append(connection)
            guard askAndRead(connection) else { throw BenchFailure("the status listener did not answer GET / (see \(rig.bridgeLogPath))") }
        }
        let open = mostThreads(stats)
        table.add("threads", "idle, status listener on (most of \(readings) readings)", "\(idle)", target: "≤ 2", idle <= 2 ? .met : .missed)
        table.add("threads", "with \(connectionCount) status connections open (each kept alive after a GET /)", "\(open)",
                  target: "≤ 2, constant", open <= 2 && open == idle ? .met : .missed)
    }

    private static func mostThreads(_ stats: ProcessStats) -> Int {
        var most = 0
        for reading in 0..<readings {
            if reading > 0 { BenchPause.milliseconds(readingGapMs) }
            most = max(most, stats.threadCount())
        }
        return most
    }

    /// Sends `GET /` (keep-alive) and waits up to 5 s for the first bytes of the answer.
    private static func askAndRead(_ connection: Int32) -> Bool {
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return false }
        var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 5_000) == 1 else { return false }
        var buffer = [UInt8](repeating: 0, count: answerBytes)
        return recv(connection, &buffer, buffer.count, 0) > 0
    }
}
