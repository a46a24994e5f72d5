import ShellSupport

/// Press → command and press → confirmed: presses one at a time on every
/// toggle in turn; for each, the time from the simulator writing the event on
/// the stream to the device's command arriving, and to the confirming PATCH
/// (the device echoes at once).
enum PressScenario {
    struct Samples {
        var streamToCommandUs: [Int64] = []
        var streamToConfirmedUs: [Int64] = []
        var pressToConfirmedUs: [Int64] = []
    }

    static func run(_ rig: BenchRig, table: inout ResultTable) throws {
        var samples = Samples()
        let cpu = CPUMeter(rig)
        for index in 0..<rig.sizes.pressCount {
            try pressOnce(rig, toggle: index * 37 % rig.sizes.toggleCount, into: &samples)
        }
        let count = samples.streamToCommandUs.count
        let isStarved = rig.cgroup != nil
        table.addLatency("press → command", "p50, \(count) presses on \(rig.sizes.toggleCount) toggles",
                         us: Percentile.of(samples.streamToCommandUs, percent: 50), limitUs: isStarved ? nil : 500)
        table.addLatency("press → command", "p99", us: Percentile.of(samples.streamToCommandUs, percent: 99),
                         limitUs: isStarved ? 20_000 : 2_000)
        cpu.addRow(to: &table, "press → confirmed", "bridge CPU per press (command, echo, confirming PATCH)", count: count)
        table.addLatency("press → confirmed", "p50, event written → confirming PATCH",
                         us: Percentile.of(samples.streamToConfirmedUs, percent: 50), limitUs: nil)
        table.addLatency("press → confirmed", "p99, event written → confirming PATCH",
                         us: Percentile.of(samples.streamToConfirmedUs, percent: 99), limitUs: 5_000)
        table.addLatency("press → confirmed", "p99, press call → PATCH (+ sim's 15 ms stream poll)",
                         us: Percentile.of(samples.pressToConfirmedUs, percent: 99), limitUs: nil)
        if rig.sizes.minPublishIntervalMs > 0 { try pressesInsideTheInterval(rig, table: &table) }
    }

    /// A press on a widget inside its publish interval, with a state change
    /// held back by it: the answer must not wait for the interval's end.
    private static func pressesInsideTheInterval(_ rig: BenchRig, table: inout ResultTable) throws {
        var samples = Samples()
        let count = max(5, rig.sizes.pressCount / 50)
        for index in 0..<count {
            let first = (index % rig.sizes.widgetCount) * rig.sizes.togglesPerWidget   // three toggles of one widget
            BenchPause.microseconds((rig.sizes.minPublishIntervalMs + 2) * 1_000)
            _ = try StatePublishScenario.changeOnce(rig, toggle: first)   // its PATCH starts the interval
            try rig.devices.publishState(toggle: first + 1, isOn: !rig.states[first + 1], retain: true)   // held back
            rig.states[first + 1].toggle()
            try pressOnce(rig, toggle: first + 2, into: &samples)
        }
        let figure = "event written → confirming PATCH, \(count) presses inside the interval (a change held)"
        table.addLatency("press → confirmed", "p50, " + figure, us: Percentile.of(samples.streamToConfirmedUs, percent: 50), limitUs: 5_000)
        table.addLatency("press → confirmed", "max, the same (an answer waiting for the interval: ~\(rig.sizes.minPublishIntervalMs) ms)",
                         us: samples.streamToConfirmedUs.max(), limitUs: nil)
    }

    /// One press of `toggle`: the time from its event written to its command at the device.
    static func commandLatencyUs(_ rig: BenchRig, toggle: Int) throws -> Int64 {
        var samples = Samples()
        try pressOnce(rig, toggle: toggle, into: &samples)
        return samples.streamToCommandUs.last ?? 0
    }

    private static func pressOnce(_ rig: BenchRig, toggle: Int, into samples: inout Samples) throws {
        let slug = rig.sizes.slug(ofToggle: toggle)
        let action = BenchConfig.actionId(toggle)
        let frameIndex = rig.recorder.frameCount
        let patchIndex = rig.recorder.patchCount
        let commandIndex = rig.devices.commandCount
        let pressUs = MonotonicClock.nowUs()
        let outcome = rig.simulator.press(phone: BenchRig.phone, widget: slug, action: action)
        guard outcome.isAccepted else {
            throw BenchFailure("the simulator refused a press of \(slug)/\(action): \(outcome.refusal?.rawValue ?? "?")")
        }
        guard let frame = rig.recorder.waitForFrame(at: frameIndex, timeoutMs: 5_000),
              let requested = frame.pressData?["value"]?.boolValue else {
            throw BenchFailure("the press of \(action) was not written on the event stream")
        }
        guard let command = rig.devices.waitForCommand(from: commandIndex, timeoutMs: 5_000) else {
            throw BenchFailure("no command arrived for the press of \(action) (see \(rig.bridgeLogPath))")
        }
        guard command.toggle == toggle, command.isOn == requested else {
            throw BenchFailure("the press of \(action) (\(requested)) gave a command for d\(command.toggle) (\(command.isOn))")
        }
        guard let confirming = rig.recorder.waitForPatch(from: patchIndex, timeoutMs: 5_000, where: {
            $0.slug == slug && $0.shows(action, on: requested)
        }) else {
            throw BenchFailure("no confirming PATCH for the press of \(action) (see \(rig.bridgeLogPath))")
        }
        rig.states[toggle] = requested
        samples.streamToCommandUs.append(command.arrivedUs - frame.writtenUs)
        samples.streamToConfirmedUs.append(confirming.arrivedUs - frame.writtenUs)
        samples.pressToConfirmedUs.append(confirming.arrivedUs - pressUs)
    }
}
