/// The bench's command line: `bridge-bench [--quick] [--bridge PATH] [--soak ...]`.
struct BenchArguments: Sendable {
    static let usage = """
    usage: bridge-bench [--quick] [--bridge PATH] [--broker-nodelay] [--cpu-quota PERCENT] [--min-publish-interval-ms N]
                        [--only press|state|unsafe-press|threads|stalls] [--count N]
           bridge-bench --soak [--minutes N] [--seed S] [--quick] [--one-process] [--bridge PATH]
           bridge-bench --floor [--count N]
       bridge-bench --instructions [--quick] [--bridge PATH]
      --quick           every scenario small (seconds), for CI smoke runs; times are not meaningful
      --bridge PATH     the switchboard-bridge binary to measure (default: the one beside bridge-bench)
      --broker-nodelay  run mosquitto with `set_tcp_nodelay true` (default: mosquitto's defaults)
      --cpu-quota P     run the bridge (only it) in a cgroup limited to P % of one core (1-100),
                        a Pi-sized budget; skipped with a line saying why where cgroups are not writable
      --min-publish-interval-ms N  the bridge's politeness interval (default 200, the daemon's; 0 = off,
                        the behaviour before it existed)
      --only S          the start, then scenario S alone: press (press → command / confirmed), state
                        (state → publish), unsafe-press (repeat_safe: false buttons with none and 4,000
                        ids remembered, a fresh bridge each), threads (a fresh bridge with the status
                        listener on, idle and with 10 connections), stalls (issue 38: 600 toggles, press →
                        command idle, with 64 clients flooding GET / and HEAD /, with unsafe presses
                        syncing 400 ms each, with the broker SIGSTOPped 12 s, and with the API host's
                        lookup taking 25 s, --quick 5 s; about 4 minutes); for profiles (callgrind) of
                        one kind of work
      --count N         presses (press), state changes (state) in the run (default 1000, --quick 30),
                        or presses per bridge (unsafe-press; default 50, --quick 5)
      --soak            the compressed soak: seeded traffic, faults, reloads and kill -9 restarts;
                        exits 1 on a lost or repeated press, a stale widget, or a leaked fd or thread
      --minutes N       the soak's length (default 10); --quick: about 1.5 minutes, for CI
      --seed S          the soak's schedule (default: from the clock; always printed)
      --one-process     the soak without bridge restarts: one bridge process for the whole run (broker
                        restarts, reloads and the other faults stay), its RssAnon slope per simulated day
                        also over each half of the run; exits 1 if the bridge was started more than once
      --floor           what a press's I/O alone costs here: the bench plays the event stream, the broker
                        and the service to a child with no logic (three loopback connections, the
                        bridge's byte counts, one press every 15 ms) and prints the child's CPU per press
      --instructions    the bridge's instructions per press and per published state message, counted by
                        valgrind's callgrind (two runs of each, 20 and 120 units; --quick: 3 and 8): a figure
                        that does not move with the machine, unlike CPU time
    Build first with: swift build -c release
    """

    var isQuick = false
    var bridgePath: String?
    var brokerTCPNoDelay = false
    var cpuQuotaPercent: Int?
    var isSoak = false
    var soakMinutes = 10
    var soakSeed: UInt64?
    var isSoakOneProcess = false
    var onlyScenario: BenchScenario?
    var count: Int?
    var minPublishIntervalMs: Int64?
    var isFloor = false
    var isInstructions = false
    /// `--floor-relay P P P L`: this process is `FloorRelay`, the child of `--floor`.
    var floorRelayPorts: [Int]?
    /// `--floor-relay P P P L`: the lines the relay touches after each wake.
    var floorRelayTouchLines = 0

    static func parse(_ arguments: [String]) -> Result<BenchArguments, BenchFailure> {
        var parsed = BenchArguments()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": parsed.isQuick = true
            case "--broker-nodelay": parsed.brokerTCPNoDelay = true
            case "--soak": parsed.isSoak = true
            case "--floor": parsed.isFloor = true
            case "--instructions": parsed.isInstructions = true
            case "--floor-relay":
                let ports = rest.prefix(3).compactMap { Int($0) }.filter { (1...65_535).contains($0) }
                guard ports.count == 3, let lines = rest.dropFirst(3).first.flatMap({ Int($0) }),
                      (0...FloorRelay.maxTouchLines).contains(lines) else {
                    return .failure(BenchFailure("--floor-relay needs three ports and a count of lines"))
                }
                rest = rest.dropFirst(4)
                parsed.floorRelayPorts = ports
                parsed.floorRelayTouchLines = lines
            case "--one-process": parsed.isSoakOneProcess = true
            case "--only":
                guard let text = rest.popFirst(), let scenario = BenchScenario(rawValue: text) else {
                    return .failure(BenchFailure("--only needs press, state, unsafe-press, threads or stalls"))
                }
                parsed.onlyScenario = scenario
            case "--count":
                guard let text = rest.popFirst(), let count = Int(text), (1...100_000).contains(count) else {
                    return .failure(BenchFailure("--count needs a whole number from 1 to 100000"))
                }
                parsed.count = count
            case "--cpu-quota":
                guard let text = rest.popFirst(), let percent = Int(text), (1...100).contains(percent) else {
                    return .failure(BenchFailure("--cpu-quota needs a whole percentage from 1 to 100"))
                }
                parsed.cpuQuotaPercent = percent
            case "--minutes":
                guard let text = rest.popFirst(), let minutes = Int(text), (1...1_440).contains(minutes) else {
                    return .failure(BenchFailure("--minutes needs a whole number from 1 to 1440"))
                }
                parsed.soakMinutes = minutes
            case "--seed":
                guard let text = rest.popFirst(), let seed = UInt64(text) else {
                    return .failure(BenchFailure("--seed needs a whole number"))
                }
                parsed.soakSeed = seed
            case "--min-publish-interval-ms":
                guard let text = rest.popFirst(), let interval = Int64(text), (0...60_000).contains(interval) else {
                    return .failure(BenchFailure("--min-publish-interval-ms needs a whole number from 0 to 60000"))
                }
                parsed.minPublishIntervalMs = interval
            case "--bridge":
                guard let path = rest.popFirst() else { return .failure(BenchFailure("--bridge needs a path")) }
                parsed.bridgePath = path
            default: return .failure(BenchFailure("unknown argument '\(argument)'"))
            }
        }
        return .success(parsed)
    }
}

/// A scenario that `--only` runs alone after the start.
enum BenchScenario: String, Sendable {
    case press
    case state
    case unsafePress = "unsafe-press"
    case threads
    /// Issue 38: press → command while the status page is flooded and the disk is slow.
    case stalls
}
