import ShellSupport

/// Start: spawn the bridge with 100 retained states waiting, time its first
/// PATCH, then wait until every widget shows the retained states and the event
/// stream is open.
enum StartScenario {
    static func run(_ rig: BenchRig, bridgeExecutable: String, table: inout ResultTable) throws {
        try rig.publishRetainedStates()
        let firstIndex = rig.recorder.patchCount
        try rig.spawnBridge(executable: bridgeExecutable)
        guard let first = rig.recorder.waitForPatch(from: firstIndex, timeoutMs: rig.startTimeoutMs, where: { _ in true }) else {
            throw BenchFailure("no PATCH within \(rig.startTimeoutMs / 1_000) s of starting the bridge (see \(rig.bridgeLogPath))")
        }
        var lastUs = first.arrivedUs
        for slug in rig.sizes.slugs {
            guard let shown = rig.recorder.waitForPatch(from: firstIndex, timeoutMs: 10_000, where: {
                $0.slug == slug && rig.showsCurrentStates($0)
            }) else {
                throw BenchFailure("widget \(slug) never showed the retained states (see \(rig.bridgeLogPath))")
            }
            lastUs = max(lastUs, shown.arrivedUs)
        }
        guard rig.simulator.waitForEventStream(timeoutMs: 10_000) else {
            throw BenchFailure("the bridge did not open the event stream (see \(rig.bridgeLogPath))")
        }
        table.addLatency("start", "spawn → first PATCH, \(rig.sizes.toggleCount) retained states", us: first.arrivedUs - rig.spawnedUs, limitUs: nil)
        table.addLatency("start", "spawn → all \(rig.sizes.widgetCount) widgets show them", us: lastUs - rig.spawnedUs, limitUs: nil)
        if let startKB = rig.bridgeStats?.statusKilobytes("VmHWM") {
            table.add("start", "VmHWM once started (the libraries and the runtime)", Figure.megabytes(kB: startKB))
        }
    }
}
