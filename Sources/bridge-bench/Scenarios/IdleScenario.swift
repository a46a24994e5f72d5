import ShellSupport

/// Idle: the bridge's CPU time and thread wakeups over `idleSeconds` with the
/// event stream open and MQTT connected (checked before, and by a state
/// change reaching a PATCH afterwards).
enum IdleScenario {
    static func run(_ rig: BenchRig, table: inout ResultTable) throws {
        guard let stats = rig.bridgeStats else { throw BenchFailure("no bridge process") }
        _ = rig.recorder.waitUntilQuiet(quietMs: 500, timeoutMs: 10_000)
        guard rig.simulator.openEventStreamCount > 0 else { throw BenchFailure("the event stream is not open before idle") }
        guard let cpuBeforeUs = stats.cpuTimeUs() else { throw BenchFailure("cannot read the bridge's /proc") }
        let runBeforeNs = stats.threadRunTimeNs()
        let switchesBefore = stats.contextSwitches()
        let startUs = MonotonicClock.nowUs()
        BenchPause.milliseconds(rig.sizes.idleSeconds * 1000)
        let windowUs = MonotonicClock.nowUs() - startUs
        let tickCPUUs = (stats.cpuTimeUs() ?? cpuBeforeUs) - cpuBeforeUs
        let switches = stats.contextSwitches() - switchesBefore
        let runAfterNs = stats.threadRunTimeNs()
        let exactCPUUs = runBeforeNs.flatMap { before in runAfterNs.map { ($0 - before) / 1000 } }
        try checkStillConnected(rig)
        let cpuUs = exactCPUUs ?? tickCPUUs
        let source = exactCPUUs == nil ? "stat ticks" : "schedstat; stat ticks say \(Figure.milliseconds(us: tickCPUUs))"
        let percentMilli = cpuUs * 100_000 / max(1, windowUs)
        table.add("idle", "bridge CPU over \(rig.sizes.idleSeconds) s: \(Figure.milliseconds(us: cpuUs)) (\(source))",
                  Figure.percent(milli: percentMilli), target: "≤ 0.100 %", percentMilli <= 100 ? .met : .missed)
        table.add("idle", "wakeups per second (context switches, all threads: \(stats.threadCount()))",
                  Figure.decimal(tenths: switches * 10_000_000 / max(1, windowUs)))
    }

    private static func checkStillConnected(_ rig: BenchRig) throws {
        guard rig.simulator.openEventStreamCount > 0 else { throw BenchFailure("the event stream closed while idle") }
        let toggle = 0
        let isOn = !rig.states[toggle]
        let patchIndex = rig.recorder.patchCount
        try rig.devices.publishState(toggle: toggle, isOn: isOn, retain: true)
        guard rig.recorder.waitForPatch(from: patchIndex, timeoutMs: 5_000, where: {
            $0.shows(BenchConfig.actionId(toggle), on: isOn)
        }) != nil else { throw BenchFailure("MQTT seems disconnected after idle: no PATCH for a state change") }
        rig.states[toggle] = isOn
    }
}
