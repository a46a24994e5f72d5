import Glibc
import HTTPServer
import ShellSupport

/// `bridge-bench --floor`: what a press's I/O alone costs on this machine. The
/// bench plays the three peers (the event stream, the broker with its device,
/// the service) over loopback TCP to `FloorRelay`, a child with no logic, and
/// reads the child's CPU the way it reads the bridge's (schedstat). A press of
/// the bridge costs at least this here: its four wakes (event, PUBACK, echo,
/// PATCH answer) and its two sends that wake a peer. Sizes are the bridge's on
/// the wire (strace of `--only press`); pacing is the simulator's 15 ms stream poll.
enum FloorScenario {
    static let eventBytes = 268
    static let answerBytes = 143
    static let echoDelayUs: Int64 = 150
    static let roundPeriodUs: Int64 = 15_000
    static let warmUpRounds = 20
    static let waitLimitMs: Int32 = 5_000

    /// Runs `rounds` presses' I/O against a relay started from `executable`, which
    /// touches `touchLines` cache lines after each wake; the CPU per round in ns.
    static func run(rounds: Int, executable: String, logPath: String, touchLines: Int = 0) throws -> Int64 {
        var listeners: [Int32] = []
        defer { listeners.forEach { close($0) } }
        var ports: [Int] = []
        for _ in 0..<3 {
            let bound = try ListeningSocket.open(host: "127.0.0.1", port: 0)
            listeners.append(bound.descriptor)
            ports.append(bound.port)
        }
        let relay = try ChildProcess(executable: executable, arguments: BenchArguments.floorRelayWords(ports: ports, touchLines: touchLines),
                                     logPath: logPath)
        defer { relay.stop(graceMs: 2_000) }
        var peers: [Int32] = []
        defer { peers.forEach { close($0) } }
        for listener in listeners {
            guard waitReadable(listener) else { throw BenchFailure("the floor relay did not connect (see \(logPath))") }
            let peer = accept(listener, nil, nil)
            guard peer >= 0 else { throw BenchFailure("accept: errno \(errno)") }
            var one: Int32 = 1
            setsockopt(peer, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            peers.append(peer)
        }
        let stats = ProcessStats(pid: relay.pid)
        var startNs: Int64 = 0
        for round in 0..<(warmUpRounds + rounds) {
            if round == warmUpRounds { startNs = stats.threadRunTimeNs() ?? 0 }
            try pressOnce(peers)
        }
        guard let endNs = stats.threadRunTimeNs() else { throw BenchFailure("no schedstat for the floor relay") }
        return (endNs - startNs) / Int64(rounds)
    }

    /// One press's traffic, as the three peers see it.
    private static func pressOnce(_ peers: [Int32]) throws {
        let startUs = MonotonicClock.nowUs()
        try write(eventBytes, to: peers[0])
        try read(FloorRelay.commandBytes, from: peers[1])
        try write(FloorRelay.pubackBytes, to: peers[1])
        BenchPause.microseconds(echoDelayUs)
        try write(FloorRelay.echoBytes, to: peers[1])
        try read(FloorRelay.patchBytes, from: peers[2])
        try write(answerBytes, to: peers[2])
        BenchPause.microseconds(startUs + roundPeriodUs - MonotonicClock.nowUs())
    }

    private static func write(_ count: Int, to socket: Int32) throws {
        let bytes = [UInt8](repeating: 0x65, count: count)
        guard send(socket, bytes, count, Int32(MSG_NOSIGNAL)) == count else { throw BenchFailure("floor: send failed, errno \(errno)") }
    }

    private static func read(_ count: Int, from socket: Int32) throws {
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            guard waitReadable(socket) else { throw BenchFailure("floor: the relay did not answer in \(waitLimitMs) ms") }
            let received = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress.map { $0 + got }, count - got, 0) }
            guard received > 0 else { throw BenchFailure("floor: the relay closed its connection") }
            got += received
        }
    }

    private static func waitReadable(_ socket: Int32) -> Bool {
        var readiness = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&readiness, 1, waitLimitMs) == 1
    }
}

/// `--floor` from the command line: a run of the bare relay, its figure printed,
/// then one whose relay touches `touchLines` scattered cache lines after each wake,
/// against the same lines touched back to back in the bench (no wake between): what a
/// line of footprint costs after a wake here, and what it costs warm. The exit status.
enum FloorRun {
    /// 384 KiB: less than this machine's L2, about a press's code and data in the bridge.
    static let touchLines = 6_144
    static let warmPasses = 200

    static func run(rounds: Int) -> Int32 {
        guard let directory = FileText.temporaryDirectory(prefix: "bridge-floor"),
              let executable = OwnExecutable.path() else {
            StandardErrorWriter.writeLine("bridge-bench --floor: no temporary directory or no /proc/self/exe")
            return 1
        }
        defer { _ = DirectoryTree.remove(directory) }
        do {
            let perRoundNs = try FloorScenario.run(rounds: rounds, executable: executable, logPath: directory + "/relay.log")
            print("bridge-bench --floor: a press's I/O with no logic (four wakes, two sends that wake a peer), \(rounds) presses")
            print("machine load when done: \(ProcFile.read("/proc/loadavg").map { String($0.prefix { $0 != "\n" }) } ?? "?") (/proc/loadavg)")
            print("CPU per press of the relay (schedstat): \(Figure.microseconds(ns: perRoundNs))")
            let touchingNs = try FloorScenario.run(rounds: rounds, executable: executable, logPath: directory + "/relay.log",
                                                   touchLines: touchLines)
            print("the same, the relay touching \(touchLines) scattered cache lines (\(touchLines * FloorRelay.cacheLineBytes / 1024) KiB) "
                  + "after each wake: \(Figure.microseconds(ns: touchingNs))")
            let afterWakePs = (touchingNs - perRoundNs) * 1000 / Int64(wakesPerPress * touchLines)
            print("a line touched after a wake: \(Figure.hundredths(max(0, afterWakePs) / 10)) ns "
                  + "(the difference over \(wakesPerPress) wakes a press × \(touchLines) lines)")
            if let warmPs = warmLinePicoseconds() {
                print("the same lines touched back to back in the bench, no wake between: \(Figure.hundredths(warmPs / 10)) ns a line")
            }
            return 0
        } catch {
            StandardErrorWriter.writeLine("bridge-bench --floor: \(error)")
            return 1
        }
    }

    /// The event, the PUBACK, the echo and the PATCH's answer.
    static let wakesPerPress = 4

    /// The CPU of one line of `touchLines` touched in passes back to back, in picoseconds.
    private static func warmLinePicoseconds() -> Int64? {
        var workingSet = WorkingSet(lines: touchLines)
        workingSet.touch()
        guard let startNs = ProcessStats.callingThreadCPUTimeNs() else { return nil }
        for _ in 0..<warmPasses { workingSet.touch() }
        guard let endNs = ProcessStats.callingThreadCPUTimeNs(), workingSet.exitStatus == 0 else { return nil }
        return (endNs - startNs) * 1000 / Int64(warmPasses * touchLines)
    }
}
