/// The bridge's CPU time over one scenario, from /proc/PID/task/*/schedstat
/// (nanoseconds on a CPU, every live thread), per unit of work, and its split
/// between user and kernel time (/proc/PID/stat, 10 ms ticks).
struct CPUMeter {
    let stats: ProcessStats?
    let startNs: Int64?
    let startTimes: (userUs: Int64, kernelUs: Int64)?
    let startFaults: Int64?
    let startSwitches: Int64?

    init(_ rig: BenchRig) {
        stats = rig.bridgeStats
        startNs = stats?.threadRunTimeNs()
        startTimes = stats?.cpuTimesUs()
        startFaults = stats?.minorFaults()
        startSwitches = stats?.contextSwitches()
    }

    /// Adds `figure` in µs of CPU per unit, `count` units since `init`.
    func addRow(to table: inout ResultTable, _ scenario: String, _ figure: String, count: Int) {
        guard let startNs, let endNs = stats?.threadRunTimeNs(), count > 0 else {
            table.add(scenario, figure + " (schedstat)", "not available")
            return
        }
        let perUnitNs = (endNs - startNs) / Int64(count)
        table.add(scenario, figure + " (schedstat)", Figure.microseconds(ns: perUnitNs))
        addWakeRows(to: &table, scenario, count: count)
        guard let startTimes, let endTimes = stats?.cpuTimesUs() else { return }
        let userUs = endTimes.userUs - startTimes.userUs
        let kernelUs = endTimes.kernelUs - startTimes.kernelUs
        let kernelPercent = userUs + kernelUs > 0 ? kernelUs * 100 / (userUs + kernelUs) : 0
        table.add(scenario, "  of it in the kernel (stat ticks: user \(Figure.milliseconds(us: userUs)), kernel \(Figure.milliseconds(us: kernelUs)))",
                  "\(kernelPercent) %")
    }

    /// Context switches and minor page faults per unit: a wake finds cold caches,
    /// and a page the allocator gave back costs a fault when touched again.
    private func addWakeRows(to table: inout ResultTable, _ scenario: String, count: Int) {
        guard let stats, let startSwitches, let startFaults, let endFaults = stats.minorFaults() else { return }
        let switchesPer100 = (stats.contextSwitches() - startSwitches) * 100 / Int64(count)
        let faultsPer100 = (endFaults - startFaults) * 100 / Int64(count)
        table.add(scenario, "  context switches / minor page faults per unit",
                  "\(Figure.hundredths(switchesPer100)) / \(Figure.hundredths(faultsPer100))")
    }
}
