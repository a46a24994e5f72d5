import CommandLineParsing

/// The bench's command line: `bridge-bench [--quick] [--bridge PATH] [--soak ...]`, declared
/// once and read by the package's one parser (`CommandLineArguments`), which also makes
/// its `--help` and its refusals.
struct BenchArguments: ParsableCommand, Sendable {
    static let program = "bridge-bench"
    static let name = ""
    static let abstract = "measures a switchboard-bridge binary against a private mosquitto and the in-process Aivi simulator, "
        + "and prints one table"

    static let quickOption = CommandOption("--quick", help: "every scenario small (seconds), for CI smoke runs; times are not meaningful")
    static let bridgeOption = CommandOption("--bridge", .text("PATH"),
        help: "the switchboard-bridge binary to measure (default: the one beside bridge-bench)")
    static let brokerNoDelayOption = CommandOption("--broker-nodelay",
        help: "run mosquitto with `set_tcp_nodelay true` (default: mosquitto's defaults)")
    static let cpuQuotaOption = CommandOption("--cpu-quota", .number("P", 1...100),
        help: "run the bridge (only it) in a cgroup limited to P % of one core, a Pi-sized budget; skipped with a line saying "
            + "why where cgroups are not writable")
    static let minPublishIntervalOption = CommandOption("--min-publish-interval-ms", .number("N", 0...60_000),
        help: "the bridge's politeness interval (default 200, the daemon's; 0 = off, the behaviour before it existed)")
    static let onlyOption = CommandOption("--only", .text("S"),
        help: "the start, then scenario S alone: press (press → command / confirmed), state (state → publish), unsafe-press "
            + "(repeat_safe: false buttons with none and 4,000 ids remembered, a fresh bridge each), threads (a fresh bridge "
            + "with the status listener on, idle and with 10 connections), stalls (issue 38: 600 toggles, press → command idle, "
            + "with 64 clients flooding GET / and HEAD /, with unsafe presses syncing 400 ms each, with the broker SIGSTOPped "
            + "12 s, and with the API host's lookup taking 25 s, --quick 5 s; about 4 minutes); for profiles (callgrind) of one "
            + "kind of work")
    static let countOption = CommandOption("--count", .number("N", 1...100_000),
        help: "presses (press, --floor), state changes (state) in the run (default 1000, --quick 30), or presses per bridge "
            + "(unsafe-press; default 50, --quick 5)")
    static let soakOption = CommandOption("--soak", help: "the compressed soak: seeded traffic, faults, reloads and kill -9 restarts; "
        + "exits 1 on a lost or repeated press, a stale widget, or a leaked fd or thread")
    static let minutesOption = CommandOption("--minutes", .number("N", 1...1_440),
        help: "the soak's length (default 10); --quick: about 1.5 minutes, for CI")
    static let seedOption = CommandOption("--seed", .text("S"), help: "the soak's schedule, a whole number (default: from the clock; always printed)")
    static let oneProcessOption = CommandOption("--one-process",
        help: "the soak without bridge restarts: one bridge process for the whole run (broker restarts, reloads and the other "
            + "faults stay), its RssAnon slope per simulated day also over each half of the run; exits 1 if the bridge was "
            + "started more than once")
    static let floorOption = CommandOption("--floor",
        help: "what a press's I/O alone costs here: the bench plays the event stream, the broker and the service to a child "
            + "with no logic (three loopback connections, the bridge's byte counts, one press every 15 ms) and prints the "
            + "child's CPU per press")
    static let instructionsOption = CommandOption("--instructions",
        help: "the bridge's instructions per press and per published state message, counted by valgrind's callgrind (two "
            + "runs of each, 20 and 120 units; --quick: 3 and 8): a figure that does not move with the machine, unlike CPU time")
    /// This process is `FloorRelay`, the child `--floor` starts (`floorRelayWords`).
    static let floorRelayOption = CommandOption("--floor-relay", .text("P,P,P,L"),
        help: "not for use by hand: the child --floor starts, with the ports of its three connections and the cache lines it "
            + "touches after each wake")

    static let options = [
        quickOption, bridgeOption, brokerNoDelayOption, cpuQuotaOption, minPublishIntervalOption, onlyOption, countOption,
        soakOption, minutesOption, seedOption, oneProcessOption, floorOption, instructionsOption, floorRelayOption,
    ]

    static let discussion = """
    Runs:
      bridge-bench [--quick] [--bridge PATH] [--broker-nodelay] [--cpu-quota P]
                   [--min-publish-interval-ms N] [--count N]
                   [--only press|state|unsafe-press|threads|stalls]
      bridge-bench --soak [--minutes N] [--seed S] [--quick] [--one-process]
                          [--bridge PATH]
      bridge-bench --floor [--count N]
      bridge-bench --instructions [--quick] [--bridge PATH]
    Build first with: swift build -c release
    """

    var isQuick: Bool
    var bridgePath: String?
    var brokerTCPNoDelay: Bool
    var cpuQuotaPercent: Int?
    var isSoak: Bool
    var soakMinutes: Int
    var soakSeed: UInt64?
    var isSoakOneProcess: Bool
    var onlyScenario: BenchScenario?
    var count: Int?
    var minPublishIntervalMs: Int64?
    var isFloor: Bool
    var isInstructions: Bool
    /// `--floor-relay P,P,P,L`: this process is `FloorRelay`, the child of `--floor`.
    var floorRelayPorts: [Int]?
    /// `--floor-relay P,P,P,L`: the lines the relay touches after each wake.
    var floorRelayTouchLines = 0

    init(_ arguments: CommandLineArguments) throws(CommandLineError) {
        isQuick = arguments.flag(Self.quickOption)
        bridgePath = arguments.text(Self.bridgeOption)
        brokerTCPNoDelay = arguments.flag(Self.brokerNoDelayOption)
        cpuQuotaPercent = arguments.number(Self.cpuQuotaOption)
        isSoak = arguments.flag(Self.soakOption)
        soakMinutes = arguments.number(Self.minutesOption) ?? 10
        isSoakOneProcess = arguments.flag(Self.oneProcessOption)
        count = arguments.number(Self.countOption)
        minPublishIntervalMs = arguments.number(Self.minPublishIntervalOption).map(Int64.init)
        isFloor = arguments.flag(Self.floorOption)
        isInstructions = arguments.flag(Self.instructionsOption)
        if let text = arguments.text(Self.seedOption) {
            guard let seed = UInt64(text) else { throw Self.refused(Self.seedOption, text, because: "is not a whole number") }
            soakSeed = seed
        }
        if let text = arguments.text(Self.onlyOption) {
            guard let scenario = BenchScenario(rawValue: text) else {
                let names = BenchScenario.allCases.map(\.rawValue).joined(separator: ", ")
                throw Self.refused(Self.onlyOption, text, because: "is not a scenario: use one of \(names)")
            }
            onlyScenario = scenario
        }
        if let text = arguments.text(Self.floorRelayOption) {
            let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            guard numbers.count == 4, let lines = numbers[3], (0...FloorRelay.maxTouchLines).contains(lines),
                  case let ports = numbers.prefix(3).compactMap({ $0 }).filter({ (1...65_535).contains($0) }), ports.count == 3 else {
                throw Self.refused(Self.floorRelayOption, text, because: "is not three ports and a count of lines")
            }
            floorRelayPorts = ports
            floorRelayTouchLines = lines
        }
    }

    /// The words that start this program as the floor's relay (what `--floor-relay` reads back).
    static func floorRelayWords(ports: [Int], touchLines: Int) -> [String] {
        [floorRelayOption.name, (ports.map(String.init) + [String(touchLines)]).joined(separator: ",")]
    }

    private static func refused(_ option: CommandOption, _ value: String, because why: String) -> CommandLineError {
        .refusedValue(command: name, option: option.name, value: value, because: why)
    }
}

/// A scenario that `--only` runs alone after the start.
enum BenchScenario: String, Sendable, CaseIterable {
    case press
    case state
    case unsafePress = "unsafe-press"
    case threads
    /// Issue 38: press → command while the status page is flooded and the disk is slow.
    case stalls
}
