import ShellSupport

/// State → publish: one device at a time changes state; the time from its
/// state message leaving the bench to the PATCH showing it arriving at the
/// simulator.
///
/// Two figures, because the bridge spaces a widget's state-only PATCHes at
/// least `min_publish_interval_ms` apart: the leading edge (the widget idle:
/// its last PATCH arrived more than the interval ago, plus 2 ms), and a change
/// right after a PATCH (it waits for the interval's end, by design).
enum StatePublishScenario {
    static let pacingMs: Int64 = 2

    static func run(_ rig: BenchRig, table: inout ResultTable) throws {
        var latenciesUs: [Int64] = []
        var lastPatchUs: [String: Int64] = [:]
        let intervalUs = rig.sizes.minPublishIntervalMs * 1_000
        let cpu = CPUMeter(rig)
        for index in 0..<rig.sizes.stateChangeCount {
            let toggle = (index * 37 + 11) % rig.sizes.toggleCount
            let slug = rig.sizes.slug(ofToggle: toggle)
            let idleFromUs = (lastPatchUs[slug] ?? 0) + intervalUs + pacingMs * 1_000
            BenchPause.microseconds(idleFromUs - MonotonicClock.nowUs())
            let shown = try changeOnce(rig, toggle: toggle)
            latenciesUs.append(shown.latencyUs)
            lastPatchUs[slug] = shown.arrivedUs
        }
        let idle = "widget idle (> \(rig.sizes.minPublishIntervalMs) ms since its PATCH)"
        table.addLatency("state → publish", "p50, \(latenciesUs.count) state changes, \(idle)",
                         us: Percentile.of(latenciesUs, percent: 50), limitUs: 1_000)
        table.addLatency("state → publish", "p99", us: Percentile.of(latenciesUs, percent: 99), limitUs: 5_000)
        cpu.addRow(to: &table, "state → publish", "bridge CPU per state message (each one PATCHed)", count: latenciesUs.count)
        if rig.sizes.minPublishIntervalMs > 0 { try insideTheInterval(rig, table: &table) }
    }

    /// A change right after a PATCH of the same widget: published when the
    /// interval that PATCH started ends (at most the interval, plus the PATCH).
    private static func insideTheInterval(_ rig: BenchRig, table: inout ResultTable) throws {
        var latenciesUs: [Int64] = []
        let samples = max(5, rig.sizes.stateChangeCount / 50)
        for index in 0..<samples {
            let first = (index % rig.sizes.widgetCount) * rig.sizes.togglesPerWidget   // two toggles of one widget
            let second = first + 1
            BenchPause.microseconds((rig.sizes.minPublishIntervalMs + pacingMs) * 1_000)
            _ = try changeOnce(rig, toggle: first)
            latenciesUs.append(try changeOnce(rig, toggle: second).latencyUs)
        }
        let limitUs = (rig.sizes.minPublishIntervalMs + 5) * 1_000
        table.addLatency("state → publish", "p50, \(samples) changes right after a PATCH (held to the interval's end)",
                         us: Percentile.of(latenciesUs, percent: 50), limitUs: limitUs)
        table.addLatency("state → publish", "max, the same", us: latenciesUs.max(), limitUs: limitUs)
    }

    /// Flips one toggle's state and waits for the PATCH showing it.
    static func changeOnce(_ rig: BenchRig, toggle: Int) throws -> (latencyUs: Int64, arrivedUs: Int64) {
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
        return (shown.arrivedUs - sentUs, shown.arrivedUs)
    }
}
