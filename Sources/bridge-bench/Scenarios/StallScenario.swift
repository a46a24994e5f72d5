import AiviSim
import Glibc
import ShellSupport

/// Issue 38 section 2: press → command on loopback while each stall runs, against
/// the same bridge idle. One fresh bridge with 600 toggles (30 widgets), an unsafe
/// button per widget, the status listener on, and every `fdatasync` of its id file
/// slowed to `syncDelayMs` (its fault variable):
/// - idle: toggle presses one at a time;
/// - status flood: the same while `floodClients` python clients send `GET /`
///   and `HEAD /` back to back on kept-alive connections, for at least
///   `minFloodPhaseMs` (the flood reports its count twice a second); a flood that
///   got no answer meanwhile fails the run (its figure would mean nothing);
/// - slow disk: an unsafe press (a 400 ms sync each) before each toggle press,
///   so syncs run the whole time; every unsafe press's message must arrive.
/// Then a stopped broker (`BrokerStopPhase`) and a 25 s lookup of the API host
/// (`LookupStallPhase`), each on a fresh bridge. A press lost fails the run. The
/// target: each stall's p99 within 2× of idle's.
enum StallScenario {
    static let floodClients = 64
    static let syncDelayMs = 400
    static let faultVariable = "SWITCHBOARD_FAULT_SYNC_DELAY_MS"
    /// The flood's phase lasts at least this long: several of its reports (one each 500 ms).
    static let minFloodPhaseMs: Int64 = 3_000
    /// The rig's size for this scenario: ~600 actions, as in the issue.
    static func sizes(_ base: BenchSizes) -> BenchSizes {
        var sizes = base
        sizes.toggleCount = 600
        sizes.widgetCount = 30
        return sizes
    }

    static func run(_ rig: BenchRig, bridgeExecutable: String, isQuick: Bool, table: inout ResultTable) throws {
        guard let statusPort = LoopbackPort.free() else { throw BenchFailure("no free loopback port for the status listener") }
        setenv(faultVariable, String(syncDelayMs), 1)
        let spawned = Result { try rig.spawnBridge(executable: bridgeExecutable, run: "-stalls", hasUnsafeButtons: true,
                                                   statusPort: statusPort) }
        unsetenv(faultVariable)
        try spawned.get()
        try rig.waitUntilStarted()
        let count = max(20, min(rig.sizes.pressCount, 300))
        var toggle = 0
        func nextToggle() -> Int {
            toggle = (toggle + 37) % rig.sizes.toggleCount
            return toggle
        }
        var idle: [Int64] = []
        for _ in 0..<count { idle.append(try PressScenario.commandLatencyUs(rig, toggle: nextToggle())) }

        let flood = try StatusFlood(port: statusPort, clients: floodClients, directory: rig.directory)
        defer { flood.stop() }
        guard flood.waitForAnswers(atLeast: 100, timeoutMs: 20_000) else {
            throw BenchFailure("the status flood got no answers (see \(flood.logPath))")
        }
        let answeredBefore = flood.answered
        let floodStartMs = MonotonicClock.nowMs()
        var flooded: [Int64] = []
        while flooded.count < count || MonotonicClock.nowMs() - floodStartMs < minFloodPhaseMs {
            flooded.append(try PressScenario.commandLatencyUs(rig, toggle: nextToggle()))
        }
        let floodPhaseMs = MonotonicClock.nowMs() - floodStartMs
        let answeredDuring = flood.answered - answeredBefore
        flood.stop()
        guard answeredDuring > 0 else {
            throw BenchFailure("the status flood got no answers while \(flooded.count) presses ran for \(floodPhaseMs) ms: "
                               + "the flood's figure would mean nothing (see \(flood.logPath))")
        }

        var slowDisk: [Int64] = []
        let firstButton = rig.devices.buttonCommandCount
        let unsafeCount = max(10, count / 5)
        var unsafeSentUs: [Int64] = []
        for index in 0..<count {
            if index % (count / unsafeCount) == 0, unsafeSentUs.count < unsafeCount {
                let widget = unsafeSentUs.count % rig.sizes.widgetCount
                unsafeSentUs.append(MonotonicClock.nowUs())
                let frameIndex = rig.recorder.frameCount
                let outcome = rig.simulator.press(phone: BenchRig.phone, widget: rig.sizes.slug(ofWidget: widget),
                                                  action: BenchConfig.unsafeButtonId(widget: widget))
                guard outcome.isAccepted, let eventId = outcome.eventId else { throw BenchFailure("the simulator refused an unsafe press") }
                // Its frame first, so the toggle press below finds its own frame next.
                guard rig.recorder.waitForFrame(carrying: eventId, from: frameIndex, timeoutMs: 5_000) != nil else {
                    throw BenchFailure("the unsafe press \(eventId) was not written on the event stream")
                }
            }
            slowDisk.append(try PressScenario.commandLatencyUs(rig, toggle: nextToggle()))
        }
        let deadlineMs = MonotonicClock.nowMs() + 30_000
        while rig.devices.buttonCommandCount - firstButton < unsafeSentUs.count, MonotonicClock.nowMs() < deadlineMs {
            BenchPause.milliseconds(20)
        }
        let arrived = rig.devices.buttonCommandCount - firstButton
        let lastButtonUs = rig.devices.lastButtonCommandArrivedUs
        guard arrived == unsafeSentUs.count else {
            throw BenchFailure("\(unsafeSentUs.count - arrived) of \(unsafeSentUs.count) unsafe presses never reached their device")
        }
        rig.stopBridge()
        BenchRun.progress("stalls: a stopped broker (SIGSTOP, \(BrokerStopPhase.stopMs / 1_000) s) on a fresh bridge")
        let stopped = try BrokerStopPhase.run(rig, bridgeExecutable: bridgeExecutable, afterCount: count)
        BenchRun.progress("stalls: a slow lookup of the API host on a fresh bridge (its first lookup, then the 60 s its answer is kept)")
        let lookup = try LookupStallPhase.run(rig, bridgeExecutable: bridgeExecutable, isQuick: isQuick, idleCount: count)

        let scenario = "stalls (issue 38)"
        let idleP99 = Percentile.of(idle, percent: 99)
        table.addLatency(scenario, "press → command p99, idle, \(count) presses on \(rig.sizes.toggleCount) toggles", us: idleP99, limitUs: nil)
        let limit = idleP99.map { 2 * $0 }
        table.addLatency(scenario, "p50, idle", us: Percentile.of(idle, percent: 50), limitUs: nil)
        table.addLatency(scenario, "p50, status flood", us: Percentile.of(flooded, percent: 50), limitUs: nil)
        table.addLatency(scenario, "p50, slow disk", us: Percentile.of(slowDisk, percent: 50), limitUs: nil)
        table.addLatency(scenario, "last unsafe press → its message (at most two syncs of \(syncDelayMs) ms)",
                         us: lastButtonUs.flatMap { last in unsafeSentUs.last.map { last - $0 } }, limitUs: Int64(2 * syncDelayMs + 100) * 1000)
        table.addLatency(scenario, "p99, \(floodClients) clients flooding GET / and HEAD / (\(answeredDuring) answers in "
                         + "\(floodPhaseMs) ms meanwhile, \(flooded.count) presses)",
                         us: Percentile.of(flooded, percent: 99), limitUs: limit)
        table.addLatency(scenario, "p99, \(unsafeCount) unsafe presses syncing \(syncDelayMs) ms each meanwhile",
                         us: Percentile.of(slowDisk, percent: 99), limitUs: limit)
        table.addLatency(scenario, "p99, the API host's lookup taking \(lookup.lookupDelayMs / 1_000) s, \(lookup.stalledUs.count) presses "
                         + "(0 PATCHes meanwhile)", us: Percentile.of(lookup.stalledUs, percent: 99), limitUs: limit)
        table.addLatency(scenario, "p50, the same", us: Percentile.of(lookup.stalledUs, percent: 50), limitUs: nil)
        table.addLatency(scenario, "p99, the same bridge (API by name) idle, \(lookup.idleUs.count) presses",
                         us: Percentile.of(lookup.idleUs, percent: 99), limitUs: nil)
        table.add(scenario, "slow lookup: the reset PATCH → the next PATCH accepted", "\(lookup.resetToNextPatchMs) ms")
        table.add(scenario, "slow lookup: the last press → every pressed tile confirmed", "\(lookup.lastPressToConfirmedMs) ms")
        table.add(scenario, "stopped broker: stop → the bridge's log says it is silent (read every \(BrokerStopPhase.pressSpacingMs) ms)",
                  "\(stopped.foundSilentMs) ms", target: "≤ 3 s + \(BrokerStopPhase.pressSpacingMs) ms",
                  stopped.foundSilentMs <= 3_000 + Int64(BrokerStopPhase.pressSpacingMs) + 100 ? .met : .missed)
        table.addLatency(scenario, "stopped broker: event written → answer, max of \(stopped.answerBeforeSilentUs.count) presses "
                         + "before that (sent; the confirm timeout)", us: stopped.answerBeforeSilentUs.max(), limitUs: 5_300_000)
        table.addLatency(scenario, "stopped broker: event written → answer, p50 of \(stopped.answerOnceSilentUs.count) presses "
                         + "once known silent", us: Percentile.of(stopped.answerOnceSilentUs, percent: 50), limitUs: nil)
        table.addLatency(scenario, "stopped broker: the same, p99", us: Percentile.of(stopped.answerOnceSilentUs, percent: 99),
                         limitUs: limit)
        table.add(scenario, "stopped broker: door presses / pulses at the relay (ms from the stop)",
                  "\(stopped.doorPresses) / \(stopped.doorPulsesMs.map { "\($0)" }.joined(separator: ", "))",
                  target: "no two inside \(BenchConfig.doorTravelTimeMs) ms", .met)
        table.add(scenario, "stopped broker: resume → first command (\(stopped.answeredWhileReconnecting) answered meanwhile)",
                  "\(stopped.resumeToCommandMs) ms")
        table.addLatency(scenario, "p99 after the broker resumed, \(stopped.afterResumeUs.count) presses",
                         us: Percentile.of(stopped.afterResumeUs, percent: 99), limitUs: limit)
        let lostTotal = idle.count + flooded.count + slowDisk.count + lookup.idleUs.count + lookup.stalledUs.count + stopped.answerUs.count
            + stopped.answeredWhileReconnecting + stopped.afterResumeUs.count
        table.add(scenario, "presses lost", "0 of \(lostTotal) toggle presses, 0 of \(unsafeCount) unsafe, "
                  + "0 of \(stopped.doorPresses) door presses")
    }
}

/// `floodClients` clients in one python3 child process (stopped by its PID),
/// each sending `GET /` and `HEAD /` alternately on a kept-alive connection as
/// fast as answers come; the total answered is written to a report file.
final class StatusFlood {
    private let process: ChildProcess
    private let reportPath: String
    let logPath: String

    init(port: Int, clients: Int, directory: String) throws {
        let scriptPath = directory + "/status-flood.py"
        reportPath = directory + "/status-flood.count"
        logPath = directory + "/status-flood.log"
        try FileText.write(StatusPageFloodScript.python, to: scriptPath)
        process = try ChildProcess(executable: "/usr/bin/python3", arguments: [scriptPath, String(port), String(clients), reportPath],
                                   logPath: logPath)
    }

    /// Answers counted so far (as last reported, twice a second).
    var answered: Int {
        Int(ProcFile.read(reportPath).map { String($0.prefix { $0 != "\n" }) } ?? "") ?? 0
    }

    func waitForAnswers(atLeast count: Int, timeoutMs: Int) -> Bool {
        let deadlineMs = MonotonicClock.nowMs() + Int64(timeoutMs)
        while answered < count {
            guard MonotonicClock.nowMs() < deadlineMs, process.isRunning else { return false }
            BenchPause.milliseconds(50)
        }
        return true
    }

    func stop() { process.stop(graceMs: 2_000) }
}
