import BridgeCore
import Glibc
import ShellSupport

/// An unsafe press (`repeat_safe: false`) with 4,000 event ids already
/// remembered against one with none (issue 23: "within 20 %"). Each case is a
/// fresh bridge of its own, with one `repeat_safe: false` button per widget and
/// a state directory of its own: empty, or holding an id file of
/// `prefilledIdCount` live ids in the store's format (`UnsafeEventIdFile.line`,
/// the store's own writer of a record), expiring an hour from now on the
/// service's clock. The cases alternate (none, 4,000, none, 4,000, …) so drift of
/// the machine's load falls on both. Per press: the event frame written →
/// the button's message at the device (the id is recorded, `fdatasync`'d, before
/// it goes out), and the bridge's CPU (schedstat, all threads) per press. The
/// target ("within 20 %") is judged on the CPU per press: on a shared machine
/// the latency is mostly waiting for a core and for the disk's sync.
enum UnsafePressScenario {
    static let prefilledIdCount = 4_000
    /// A press lives 5 s on the service's clock; a new bridge's stream replays
    /// what is still alive, so a case starts only once the last one's presses died.
    static let replayQuietMs = 7_000
    /// Presses before the measured ones, unmeasured (the new stream's replay, caches).
    static let warmUpPresses = 2

    struct Samples {
        var streamToCommandUs: [Int64] = []
        var streamToAnswerUs: [Int64] = []
        var cpuNs: Int64 = 0
        var cpuPresses = 0
    }

    static func run(_ rig: BenchRig, bridgeExecutable: String, table: inout ResultTable) throws {
        var none = Samples()
        var prefilled = Samples()
        for round in 0..<rig.sizes.unsafePressRounds {
            for isPrefilled in [false, true] {
                let run = "-unsafe-\(isPrefilled ? prefilledIdCount : 0)-\(round)"
                if isPrefilled { try prefill(rig.stateDirectory(run: run), serverNowMs: rig.simulator.clock.nowMs) }
                BenchPause.milliseconds(replayQuietMs)
                try rig.spawnBridge(executable: bridgeExecutable, run: run, hasUnsafeButtons: true)
                try rig.waitUntilStarted()
                if isPrefilled {
                    try pressAll(rig, into: &prefilled)
                    try checkStillRemembered(rig.stateDirectory(run: run), atLeast: prefilledIdCount + rig.sizes.unsafePressesPerRound)
                } else {
                    try pressAll(rig, into: &none)
                }
                rig.stopBridge()
            }
        }
        addRows(&table, none: none, prefilled: prefilled)
    }

    /// Writes `prefilledIdCount` live records, as the store appends them, into a fresh state directory.
    static func prefill(_ directory: String, serverNowMs: Int64) throws {
        guard mkdir(directory, 0o700) == 0 else { throw BenchFailure("cannot make \(directory)") }
        var log: [UInt8] = []
        for index in 0..<prefilledIdCount {
            let id = "evt_BENCHPR" + Figure.padded(Int64(index), digits: 7)   // as long as the service's ids
            log += UnsafeEventIdFile.line(RememberedEvent(id: id, expiresAtMs: serverNowMs + 3_600_000 + Int64(index)))
        }
        try FileText.write(String(decoding: log, as: UTF8.self), to: directory + "/" + UnsafeEventIdFile.name)
    }

    /// After the presses, the id file still holds the prefilled ids and the new
    /// ones (had the bridge dropped them at load, its compaction would shrink it).
    private static func checkStillRemembered(_ directory: String, atLeast count: Int) throws {
        let path = directory + "/" + UnsafeEventIdFile.name
        guard let text = ProcFile.read(path, limitBytes: 4 * 1024 * 1024) else { throw BenchFailure("cannot read \(path)") }
        let held = UnsafeEventIdFile.read(log: Array(text.utf8)).events.count
        guard held >= count else { throw BenchFailure("\(path) holds \(held) ids after the presses, fewer than \(count)") }
    }

    /// The presses of one case: the widgets' buttons in turn (each well within
    /// its action's command burst), the first `warmUpPresses` unmeasured.
    private static func pressAll(_ rig: BenchRig, into samples: inout Samples) throws {
        for index in 0..<warmUpPresses { _ = try pressOnce(rig, widget: index % rig.sizes.widgetCount) }
        let stats = rig.bridgeStats
        let startNs = stats?.threadRunTimeNs()
        for index in 0..<rig.sizes.unsafePressesPerRound {
            let (toCommandUs, toAnswerUs) = try pressOnce(rig, widget: index % rig.sizes.widgetCount)
            samples.streamToCommandUs.append(toCommandUs)
            samples.streamToAnswerUs.append(toAnswerUs)
        }
        if let startNs, let endNs = stats?.threadRunTimeNs() {
            samples.cpuNs += endNs - startNs
            samples.cpuPresses += rig.sizes.unsafePressesPerRound
        }
    }

    /// One press of `widget`'s unsafe button: frame written → its message at the
    /// device, and → the answering PATCH of the widget.
    static func pressOnce(_ rig: BenchRig, widget: Int) throws -> (toCommandUs: Int64, toAnswerUs: Int64) {
        let slug = rig.sizes.slug(ofWidget: widget)
        let action = BenchConfig.unsafeButtonId(widget: widget)
        let frameIndex = rig.recorder.frameCount
        let patchIndex = rig.recorder.patchCount
        let commandIndex = rig.devices.buttonCommandCount
        let outcome = rig.simulator.press(phone: BenchRig.phone, widget: slug, action: action)
        guard outcome.isAccepted, let eventId = outcome.eventId else {
            throw BenchFailure("the simulator refused a press of \(slug)/\(action): \(outcome.refusal?.rawValue ?? "?")")
        }
        guard let frame = rig.recorder.waitForFrame(carrying: eventId, from: frameIndex, timeoutMs: 5_000) else {
            throw BenchFailure("the press of \(action) was not written on the event stream")
        }
        guard let command = rig.devices.waitForButtonCommand(from: commandIndex, timeoutMs: 5_000), command.widget == widget else {
            throw BenchFailure("no message (or another widget's) arrived for the press of \(slug)/\(action) (see \(rig.bridgeLogPath))")
        }
        guard let answer = rig.recorder.waitForPatch(from: patchIndex, timeoutMs: 5_000, where: { $0.slug == slug }) else {
            throw BenchFailure("no answering PATCH for the press of \(slug)/\(action) (see \(rig.bridgeLogPath))")
        }
        return (command.arrivedUs - frame.writtenUs, answer.arrivedUs - frame.writtenUs)
    }

    private static func addRows(_ table: inout ResultTable, none: Samples, prefilled: Samples) {
        let scenario = "unsafe press"
        let count = none.streamToCommandUs.count
        for (name, samples) in [("none remembered", none), ("\(prefilledIdCount) ids remembered", prefilled)] {
            table.addLatency(scenario, "p50, event written → message at the device, \(name) (\(count) presses)",
                             us: Percentile.of(samples.streamToCommandUs, percent: 50), limitUs: nil)
            table.addLatency(scenario, "p99, the same, \(name)", us: Percentile.of(samples.streamToCommandUs, percent: 99), limitUs: nil)
            table.addLatency(scenario, "p50, event written → answering PATCH, \(name)",
                             us: Percentile.of(samples.streamToAnswerUs, percent: 50), limitUs: nil)
            let perPressNs = samples.cpuPresses > 0 ? samples.cpuNs / Int64(samples.cpuPresses) : 0
            table.add(scenario, "bridge CPU per press, \(name) (schedstat)",
                      Figure.microseconds(ns: perPressNs))
        }
        if let noneUs = Percentile.of(none.streamToCommandUs, percent: 50),
           let prefilledUs = Percentile.of(prefilled.streamToCommandUs, percent: 50), noneUs > 0 {
            table.add(scenario, "p50 latency with \(prefilledIdCount) ids against none (waits for a core and the disk: noisy under load)",
                      signedPercent(prefilledUs - noneUs, of: noneUs))
        }
        guard none.cpuPresses > 0, prefilled.cpuPresses > 0 else { return }
        let noneNs = none.cpuNs / Int64(none.cpuPresses)
        let prefilledNs = prefilled.cpuNs / Int64(prefilled.cpuPresses)
        guard noneNs > 0 else { return }
        let within = abs(prefilledNs - noneNs) * 5 <= noneNs
        table.add(scenario, "CPU per press with \(prefilledIdCount) ids against none", signedPercent(prefilledNs - noneNs, of: noneNs),
                  target: "within 20 %", within ? .met : .missed)
    }

    private static func signedPercent(_ difference: Int64, of base: Int64) -> String {
        let percent = difference * 100 / base
        return "\(percent >= 0 ? "+" : "")\(percent) %"
    }
}
