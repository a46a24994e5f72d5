import CommandLineParsing
import Glibc
import ShellSupport

/// `bridge-bench`: measures the release `switchboard-bridge` against a private
/// mosquitto and the in-process Aivi simulator, and prints one table (issue 7).
let arguments: BenchArguments
switch BenchArguments.parse(Array(CommandLine.arguments.dropFirst()), program: BenchArguments.program) {
case .run(let parsed): arguments = parsed
case .exit(let status, let text):
    if status == 0 { print(text) } else { StandardErrorWriter.writeLine(text) }
    exit(status)
}
if let ports = arguments.floorRelayPorts { exit(FloorRelay.run(ports: ports, touchLines: arguments.floorRelayTouchLines)) }
if arguments.isFloor { exit(FloorRun.run(rounds: arguments.count ?? BenchSizes.full.pressCount)) }
let bridgeExecutable = arguments.bridgePath ?? ((OwnExecutable.directory() ?? ".") + "/switchboard-bridge")
guard access(bridgeExecutable, X_OK) == 0 else {
    StandardErrorWriter.writeLine("bridge-bench: no switchboard-bridge binary at \(bridgeExecutable); run `swift build -c release` first")
    exit(2)
}
if arguments.isSoak {
    let seed = arguments.soakSeed ?? UInt64(bitPattern: WallClock.nowEpochMs()) % 1_000_000
    let settings = SoakSettings(seed: seed, minutes: arguments.soakMinutes, isQuick: arguments.isQuick,
                                isOneProcess: arguments.isSoakOneProcess)
    do {
        let report = try SoakRun.run(settings: settings, bridgeExecutable: bridgeExecutable)
        let mode = (arguments.isQuick ? " --quick" : " --minutes \(settings.minutes)") + (settings.isOneProcess ? " --one-process" : "")
        print("bridge-bench --soak\(mode) --seed \(seed), bridge \(bridgeExecutable)")
        print(report.table.rendered())
        for failure in report.failures { print("FAILED: \(failure)") }
        print(report.isPassed ? "soak passed (seed \(seed))" : "soak FAILED (seed \(seed)): \(report.failures.count) problem(s)")
        fflush(nil)
        exit(report.isPassed ? 0 : 1)
    } catch {
        StandardErrorWriter.writeLine("bridge-soak: \(error) (seed \(seed))")
        exit(1)
    }
}
if arguments.isInstructions {
    do {
        let table = try InstructionRun.run(bridgeExecutable: bridgeExecutable, isQuick: arguments.isQuick,
                                           brokerTCPNoDelay: arguments.brokerTCPNoDelay)
        print("bridge-bench --instructions\(arguments.isQuick ? " --quick" : ""), bridge \(bridgeExecutable)")
        print(table.rendered())
        fflush(nil)
        exit(0)
    } catch {
        StandardErrorWriter.writeLine("bridge-bench: \(error)")
        exit(1)
    }
}
var sizes = arguments.isQuick ? BenchSizes.quick : BenchSizes.full
if let interval = arguments.minPublishIntervalMs { sizes.minPublishIntervalMs = interval }
if let count = arguments.count { sizes = sizes.counting(count) }
if arguments.onlyScenario == .stalls { sizes = StallScenario.sizes(sizes) }
var cgroup: CPUCgroup?
if let percent = arguments.cpuQuotaPercent {
    switch CPUCgroup.create(percent: percent) {
    case .success(let created): cgroup = created
    case .failure(let reason):
        print("bridge-bench --cpu-quota \(percent): skipped: \(reason)")
        exit(0)
    }
}
do {
    let run = Result { try BenchRun.run(sizes: sizes, bridgeExecutable: bridgeExecutable, brokerTCPNoDelay: arguments.brokerTCPNoDelay,
                                        cgroup: cgroup, only: arguments.onlyScenario) }
    cgroup?.remove()
    let table = try run.get()
    let mode = (arguments.isQuick ? " --quick (small runs: the times are not the benchmark)" : "")
        + (arguments.onlyScenario.map { " --only \($0.rawValue)" } ?? "")
    let broker = arguments.brokerTCPNoDelay ? ", broker with set_tcp_nodelay true" : ", broker with mosquitto's defaults"
    let budget = cgroup.map { ", bridge limited to \($0.percent) % of one core (\($0.kind), period \(CPUCgroup.periodUs) µs)" } ?? ""
    print("bridge-bench\(mode)\(broker)\(budget), min_publish_interval_ms \(sizes.minPublishIntervalMs), bridge \(bridgeExecutable)")
    print("machine load when done: \(ProcFile.read("/proc/loadavg").map { String($0.prefix { $0 != "\n" }) } ?? "?") (/proc/loadavg)")
    print(table.rendered())
    print("\(table.missedCount) target(s) missed")
    fflush(nil)
    exit(0)
} catch {
    StandardErrorWriter.writeLine("bridge-bench: \(error)")
    exit(1)
}
