import MQTTShell
import ShellSupport

/// Burst: `burstMessageCount` state messages spread evenly over the toggles and
/// over `burstDurationMs`, each a pseudo-random ON/OFF. Afterwards: the most
/// PATCHes of one widget the simulator handled at once, whether each widget's
/// last PATCH shows the final states and how long after the last message it
/// arrived, and the bridge's CPU time for it all. The bridge spaces each
/// widget's state-only PATCHes `min_publish_interval_ms` apart, so the PATCHes
/// sent are bounded by widgets × (span / interval + 2), the span being how long
/// the bench took to send the burst (the leading PATCH, one an interval, and the
/// trailing one up to an interval after the last message).
enum BurstScenario {
    static func run(_ rig: BenchRig, table: inout ResultTable) throws {
        guard let stats = rig.bridgeStats, let cpuBeforeUs = stats.cpuTimeUs() else { throw BenchFailure("cannot read the bridge's /proc") }
        _ = rig.recorder.waitUntilQuiet(quietMs: 200, timeoutMs: 5_000)
        let cpu = CPUMeter(rig)
        rig.recorder.resetMaxInFlight()
        let patchIndex = rig.recorder.patchCount
        let (firstSentUs, lastSentUs) = try send(rig)
        let settled = rig.sizes.slugs.allSatisfy { slug in
            rig.recorder.waitForPatch(from: patchIndex, timeoutMs: 10_000, where: { $0.slug == slug && rig.showsCurrentStates($0) }) != nil
        }
        _ = rig.recorder.waitUntilQuiet(quietMs: 300, timeoutMs: 10_000)
        let cpuUs = (stats.cpuTimeUs() ?? cpuBeforeUs) - cpuBeforeUs
        let patches = rig.recorder.patches(from: patchIndex)
        let lastPatches = rig.sizes.slugs.compactMap { slug in patches.last { $0.slug == slug } }
        let lastAreFinal = settled && lastPatches.count == rig.sizes.widgetCount && lastPatches.allSatisfy(rig.showsCurrentStates)
        let lastArrivalUs = lastPatches.map(\.arrivedUs).max() ?? lastSentUs
        let size = "\(rig.sizes.burstMessageCount) msgs in \(rig.sizes.burstDurationMs) ms"
        let maxInFlight = rig.recorder.maxInFlightPerWidget
        table.add("burst", "max PATCHes in flight per widget (\(size))", "\(maxInFlight)", target: "≤ 1", maxInFlight <= 1 ? .met : .missed)
        table.add("burst", "last PATCH of each widget = final states", lastAreFinal ? "yes" : "no", target: "yes", lastAreFinal ? .met : .missed)
        let afterUs = max(0, lastArrivalUs - lastSentUs)
        let intervalMs = rig.sizes.minPublishIntervalMs
        let afterLimitUs = (intervalMs + 50) * 1_000
        table.add("burst", "last message → last PATCH (interval \(intervalMs) ms + 50 ms)",
                  Figure.milliseconds(us: afterUs), target: "≤ " + Figure.milliseconds(us: afterLimitUs),
                  lastAreFinal && afterUs <= afterLimitUs ? .met : .missed)
        if intervalMs > 0 {
            let spanMs = (lastSentUs - firstSentUs) / 1_000
            let patchBound = Int64(rig.sizes.widgetCount) * (spanMs / intervalMs + 2)
            table.add("burst", "PATCHes sent for the burst (widgets × (\(spanMs) ms sending / interval + 2))", "\(patches.count)",
                      target: "≤ \(patchBound)", Int64(patches.count) <= patchBound ? .met : .missed)
        } else {
            table.add("burst", "PATCHes sent during the burst (no interval)", "\(patches.count)")
        }
        table.add("burst", "bridge CPU time (/proc/PID/stat, 10 ms ticks)", Figure.milliseconds(us: cpuUs))
        cpu.addRow(to: &table, "burst", "bridge CPU per burst message", count: rig.sizes.burstMessageCount)
    }

    /// Sends the burst; returns when the first and the last message left the bench.
    private static func send(_ rig: BenchRig) throws -> (firstUs: Int64, lastUs: Int64) {
        let total = rig.sizes.burstMessageCount
        let durationUs = Int64(rig.sizes.burstDurationMs) * 1000
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        let startUs = MonotonicClock.nowUs()
        var sent = 0
        while sent < total {
            let elapsedUs = MonotonicClock.nowUs() - startUs
            let due = min(total, Int(elapsedUs * Int64(total) / durationUs) + 1)
            while sent < due {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let toggle = sent % rig.sizes.toggleCount
                let isOn = (random >> 33) & 1 == 1
                try rig.devices.publishState(toggle: toggle, isOn: isOn, retain: false)
                rig.states[toggle] = isOn
                sent += 1
            }
            if sent < total { BenchPause.microseconds(200) }
        }
        return (startUs, MonotonicClock.nowUs())
    }
}
