import ShellSupport

/// State → publish: one device at a time changes state; the time from its
/// state message leaving the bench to the PATCH showing it arriving at the
/// simulator, with the widget idle (paced 2 ms apart after each PATCH).
enum StatePublishScenario {
    static let pacingMs = 2

    static func run(_ rig: BenchRig, table: inout ResultTable) throws {
        var latenciesUs: [Int64] = []
        let cpu = CPUMeter(rig)
        for index in 0..<rig.sizes.stateChangeCount {
            let toggle = (index * 37 + 11) % rig.sizes.toggleCount
            latenciesUs.append(try changeOnce(rig, toggle: toggle))
            BenchPause.milliseconds(pacingMs)
        }
        table.addLatency("state → publish", "p50, \(latenciesUs.count) state changes",
                         us: Percentile.of(latenciesUs, percent: 50), limitUs: 1_000)
        table.addLatency("state → publish", "p99", us: Percentile.of(latenciesUs, percent: 99), limitUs: 5_000)
        cpu.addRow(to: &table, "state → publish", "bridge CPU per state message (each one PATCHed)", count: latenciesUs.count)
    }

    private static func changeOnce(_ rig: BenchRig, toggle: Int) throws -> Int64 {
        let slug = rig.sizes.slug(ofToggle: toggle)
        let action = BenchConfig.actionId(toggle)
        let isOn = !rig.states[toggle]
        let patchIndex = rig.recorder.patchCount
        let sentUs = MonotonicClock.nowUs()
        try rig.devices.publishState(toggle: toggle, isOn: isOn, retain: true)
        guard let shown = rig.recorder.waitForPatch(from: patchIndex, timeoutMs: 5_000, where: {
            $0.slug == slug && $0.shows(action, on: isOn)
        }) else {
            throw BenchFailure("no PATCH showed \(action) \(isOn ? "on" : "off") (see \(rig.bridgeLogPath))")
        }
        rig.states[toggle] = isOn
        return shown.arrivedUs - sentUs
    }
}
