import Glibc
@testable import MQTTShell
import ShellSupport
import Testing
import TestSupport

/// Issue 19 item 18's backoff on the simulated clock (issue 42 §4; it was 5 connects,
/// 1 + 2 + 4 + 8 s of wall clock, against the binary, `BrokerDropsHostileTests`): a
/// broker that accepts every connection (CONNACK 0) and drops it, at once or after
/// `holdsMs`. The client is the daemon's own `MQTTClient` with the daemon's backoff
/// settings (500 ms doubled up to 30 s), over libmosquitto and a real loopback
/// socket, on an `EventLoop` reading a `SimulatedBoardClock`; the clock moves only
/// while the client waits to reconnect (to the end of its wait) and while a
/// connection is held. Gaps are between the client's `.connected` events, in
/// milliseconds of that clock: the n-th lasts its wait (½ to 1 × 500 × 2ⁿ ms, at most
/// 30 s) plus the hold before it.
@Suite("MQTT reconnects under the simulated clock")
struct MQTTReconnectUnderSimulationTests {
    static let capMs: Int64 = 30_000

    /// The ceiling of the wait after `failures` consecutive failed connections.
    static func ceilingMs(failures: Int) -> Int64 { min(capMs, 500 << Int64(failures)) }

    /// A connection the broker drops at once is a failed attempt: each gap at least
    /// its floor (0.5, 1, 2, 4, 8 s) and at most its ceiling, the gaps growing, then
    /// at the 30 s cap (15 to 30 s) however long the broker goes on (before issue 19:
    /// a connect every 500 ms, each CONNACK resetting the backoff).
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aBrokerDroppingEveryConnectionIsBackedOffUpToTheCap(seed: UInt64) throws {
        let gaps = try DroppingBrokerPlay(seed: seed).gapsMs(holdsMs: Array(repeating: 0, count: 10))
        #expect(gaps.count == 9, "gaps \(gaps)")
        let outside = gaps.enumerated().filter { index, gapMs in
            let ceilingMs = Self.ceilingMs(failures: index + 1)
            return gapMs < ceilingMs / 2 || gapMs > ceilingMs
        }
        #expect(outside.isEmpty, "gaps outside ½-1 × 500 × 2ⁿ ms (at most 30 s): \(outside) of \(gaps)")
        let belowCap = gaps.prefix { $0 < Self.capMs / 2 }
        #expect(belowCap.count >= 4 && zip(belowCap, belowCap.dropFirst()).allSatisfy { $1 >= $0 }, "delays grow: gaps \(gaps)")
        #expect(gaps.suffix(3).allSatisfy { $0 >= Self.capMs / 2 && $0 <= Self.capMs }, "at the cap: gaps \(gaps)")
    }

    /// A connection shorter than `stableConnectionMs` (999 ms) counts as a failure:
    /// the waits after it grow as after drops at once. One that lasts the second
    /// starts the count over: the wait after it is the first one's (250-500 ms), and
    /// the next short connection is backed off from the start again.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aShortConnectionCountsAsAFailureAndAStableOneResets(seed: UInt64) throws {
        let holdsMs: [Int64] = [999, 999, 999, 999, 1_000, 0, 0]
        let gaps = try DroppingBrokerPlay(seed: seed).gapsMs(holdsMs: holdsMs)
        #expect(gaps.count == 6, "gaps \(gaps)")
        let waits = zip(gaps, holdsMs).map { $0 - $1 }
        let failures = [1, 2, 3, 4, 0, 1]
        let outside = zip(waits, failures).enumerated().filter { _, pair in
            let ceilingMs = Self.ceilingMs(failures: pair.1)
            return pair.0 < ceilingMs / 2 || pair.0 > ceilingMs
        }
        #expect(outside.isEmpty, "waits (gap less hold) outside ½-1 × the ceiling after \(failures) failures: \(outside) of \(waits)")
    }
}

/// A broker on a loopback socket that the test itself answers (its CONNACK, its
/// hang-up), played against one `MQTTClient` on a simulated clock.
final class DroppingBrokerPlay: @unchecked Sendable {
    let clock = SimulatedBoardClock()
    let loop: EventLoop
    let client: MQTTClient
    private let listener: Int32
    /// The simulated monotonic ms of each `.connected`, and any fatal reason.
    private let connects = Recorder<Int64>()
    private let fatalReasons = Recorder<String>()

    init(seed: UInt64) throws {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let (descriptor, address) = (listener, SocketAddress(literal: "127.0.0.1", port: 0))
        try #require(descriptor >= 0 && address?.withSockaddr { bind(descriptor, $0, $1) } == 0 && listen(descriptor, 8) == 0)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        let port = try #require(SocketAddress(boundTo: descriptor)?.port)
        loop = try EventLoop(clock: clock.clock)
        var settings = MQTTShell.MQTTSettings(host: "127.0.0.1", port: port, clientId: "dropped-\(seed)")
        settings.jitterSeed = seed
        settings.clock = clock.clock
        let (clock, connects, fatalReasons) = (clock, connects, fatalReasons)
        client = MQTTClient(settings: settings) { event in
            switch event {
            case .connected: connects.append(clock.monotonicMs)
            case .fatal(let reason): fatalReasons.append(reason)
            default: break
            }
        }
    }

    deinit { close(listener) }

    /// Accepts one connection per hold, answers its CONNECT with CONNACK 0, holds it
    /// `holdsMs[n]` ms of the clock and hangs up; returns the gaps between connects.
    func gapsMs(holdsMs: [Int64]) throws -> [Int64] {
        try client.start(on: loop)
        defer { client.stop() }
        for holdMs in holdsMs {
            let accepted = turnUntilSome { self.accepted() }
            let connection = try #require(accepted, "no connection \(connects.values.count + 1)")
            defer { close(connection) }
            let hasConnect = turn { self.drained(connection) > 0 }
            try #require(hasConnect, "no CONNECT")
            let connack: [UInt8] = [0x20, 0x02, 0x00, 0x00]
            try #require(send(connection, connack, connack.count, 0) == connack.count)
            let connected = connects.values.count + 1
            let hasConnected = turn { self.connects.values.count == connected }
            try #require(hasConnected, "no .connected: \(fatalReasons.values)")
            clock.advance(byMs: holdMs)
            _ = drained(connection)
            shutdown(connection, Int32(SHUT_RDWR))
            let waits = turn { self.isWaiting }
            try #require(waits, "the drop unseen")
        }
        #expect(fatalReasons.values.isEmpty, "\(fatalReasons.values)")
        let times = connects.values
        return zip(times, times.dropFirst()).map { $1 - $0 }
    }

    /// Whether the client waits to connect again.
    private var isWaiting: Bool {
        switch client.state.phase {
        case .waitingToReconnect, .waitingAfterFatal: true
        default: false
        }
    }

    /// Turns the loop until `condition` holds (within 10 s of real time), moving the
    /// clock to the end of every wait of the client's.
    private func turnUntilSome<Value>(_ condition: () -> Value?) -> Value? {
        let deadlineMs = MonotonicClock.nowMs() + 10_000
        while MonotonicClock.nowMs() < deadlineMs {
            if let value = condition() { return value }
            loop.turn(timeoutMs: 5)
            switch client.state.phase {
            case .waitingToReconnect(let untilMs), .waitingAfterFatal(let untilMs): clock.advance(toMonotonicMs: untilMs)
            default: break
            }
        }
        return condition()
    }

    private func turn(until condition: () -> Bool) -> Bool {
        turnUntilSome { condition() ? true : nil } ?? false
    }

    /// A connection accepted, if one waits.
    private func accepted() -> Int32? {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return nil }
        _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
        return connection
    }

    /// Reads what `connection` has; how many bytes.
    private func drained(_ connection: Int32) -> Int {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var total = 0
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return total }
            total += count
        }
    }
}
