import Glibc
import ShellSupport

/// One run of every scenario in order (start, presses, state changes, burst,
/// idle, memory, size), the rig stopped afterwards whatever happened.
enum BenchRun {
    /// `only` runs the start and one scenario (`--only`); `counter` starts the bridge under callgrind.
    static func run(sizes: BenchSizes, bridgeExecutable: String, brokerTCPNoDelay: Bool, cgroup: CPUCgroup? = nil,
                    counter: CallgrindCounter? = nil, only: BenchScenario? = nil) throws -> ResultTable {
        var table = ResultTable()
        let rig = try BenchRig(sizes: sizes, brokerTCPNoDelay: brokerTCPNoDelay, cgroup: cgroup, counter: counter)
        defer { rig.stop() }
        progress("broker on port \(rig.broker.port)\(brokerTCPNoDelay ? " (set_tcp_nodelay true)" : ""), simulator at \(rig.simulator.baseURL), files in \(rig.directory)")
        if let only {
            try runAlone(only, rig, bridgeExecutable: bridgeExecutable, table: &table)
            rig.stop()
            DirectoryTree.remove(rig.directory)
            return table
        }
        progress("start: spawning \(bridgeExecutable)")
        try StartScenario.run(rig, bridgeExecutable: bridgeExecutable, table: &table)
        progress("press → command / confirmed: \(sizes.pressCount) presses")
        try PressScenario.run(rig, table: &table)
        progress("state → publish: \(sizes.stateChangeCount) state changes")
        try StatePublishScenario.run(rig, table: &table)
        progress("burst: \(sizes.burstMessageCount) state messages in \(sizes.burstDurationMs) ms")
        try BurstScenario.run(rig, table: &table)
        progress("idle: \(sizes.idleSeconds) s")
        try IdleScenario.run(rig, table: &table)
        guard rig.isBridgeRunning, let stats = rig.bridgeStats, let peakKB = stats.statusKilobytes("VmHWM") else {
            throw BenchFailure("the bridge is not running at the end (see \(rig.bridgeLogPath))")
        }
        table.add("memory", "VmHWM after all of the above", Figure.megabytes(kB: peakKB), target: "≤ 16.0 MB",
                  peakKB <= 16 * 1024 ? .met : .missed)
        for (key, meaning) in [("RssAnon", "private memory"), ("RssFile", "mapped files, mostly shared libraries")] {
            if let kB = stats.statusKilobytes(key) { table.add("memory", "\(key) at the end (\(meaning))", Figure.megabytes(kB: kB)) }
        }
        rig.stopBridge()
        try runUnsafePress(rig, bridgeExecutable: bridgeExecutable, table: &table)
        progress("threads: a fresh bridge with the status listener on, idle and with \(ThreadsScenario.connectionCount) connections")
        try ThreadsScenario.run(rig, bridgeExecutable: bridgeExecutable, table: &table)
        if rig.recorder.refusedCount > 0 { progress("note: the simulator refused \(rig.recorder.refusedCount) PATCHes") }
        SizeScenario.run(bridgeExecutable: bridgeExecutable, directory: rig.directory, table: &table)
        rig.stop()
        DirectoryTree.remove(rig.directory)
        return table
    }

    /// The start and `scenario`, then the bridge stopped (SIGTERM), so a profiler around it writes its output.
    private static func runAlone(_ scenario: BenchScenario, _ rig: BenchRig, bridgeExecutable: String, table: inout ResultTable) throws {
        switch scenario {
        case .unsafePress:
            try rig.publishRetainedStates()
            return try runUnsafePress(rig, bridgeExecutable: bridgeExecutable, table: &table)
        case .threads:
            try rig.publishRetainedStates()
            return try ThreadsScenario.run(rig, bridgeExecutable: bridgeExecutable, table: &table)
        case .stalls:
            try rig.publishRetainedStates()
            progress("stalls: press → command idle, under a status flood and on a slow disk")
            return try StallScenario.run(rig, bridgeExecutable: bridgeExecutable, isQuick: rig.sizes.isQuick, table: &table)
        case .press, .state: break
        }
        progress("start: spawning \(bridgeExecutable)")
        try StartScenario.run(rig, bridgeExecutable: bridgeExecutable, table: &table)
        switch scenario {
        case .press: try PressScenario.run(rig, table: &table)
        case .state: try StatePublishScenario.run(rig, table: &table)
        case .unsafePress, .threads, .stalls: break
        }
        rig.stopBridge()
    }

    private static func runUnsafePress(_ rig: BenchRig, bridgeExecutable: String, table: inout ResultTable) throws {
        progress("unsafe press: \(rig.sizes.unsafePressRounds) × \(rig.sizes.unsafePressesPerRound) presses with none and "
                 + "\(UnsafePressScenario.prefilledIdCount) ids remembered, a fresh bridge each")
        try UnsafePressScenario.run(rig, bridgeExecutable: bridgeExecutable, table: &table)
    }

    static func progress(_ line: String) {
        StandardErrorWriter.writeLine("bridge-bench: \(line)")
    }
}
