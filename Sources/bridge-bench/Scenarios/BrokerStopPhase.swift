import Glibc
import ShellSupport

/// Issue 38 item 2 in the bench: presses while the broker is stopped (SIGSTOP:
/// its TCP connections stay open, it answers nothing), on a fresh bridge whose
/// first widget has a pulsed garage door (travel time `BenchConfig.doorTravelTimeMs`).
///
/// No command can reach a device through a stopped broker, so "press → command"
/// has no meaning while it is stopped; what is measured instead:
/// - every press during the stop is answered (the first PATCH of its widget after
///   its event was written: any update ends the phone's wait), and how soon: a
///   press made before the bridge finds the broker silent (3 s without the answer
///   to a packet: the door's pulse at the stop starts that clock) has had its
///   command sent and is answered at its confirm timeout (5 s); a press made once
///   it is known silent (the bridge's log says so, read before each press) is
///   answered at once;
/// - the door pressed at the stop and again `secondDoorPressMs` later (more than
///   its travel time, as in the issue), then once more as soon as the bridge is
///   back: no two pulses reach its relay inside one travel time;
/// - once the broker resumes and the bridge has reconnected, press → command
///   again, against idle.
enum BrokerStopPhase {
    static let stopMs: Int64 = 12_000
    static let secondDoorPressMs: Int64 = 9_500
    static let pressSpacingMs = 250
    /// What the bridge logs when it finds the broker silent (`MQTTClient.brokerFellSilent`).
    static let silentLogText = "the broker answered nothing for"

    struct Figures {
        /// Event written → answer, for each toggle press while the broker was stopped.
        var answerUs: [Int64] = []
        /// Each press during the stop: "written (ms from the stop) → answered after (ms)", in order.
        var timeline: [String] = []
        /// The same for presses made before the bridge knew the broker silent (sent; answered at the confirm timeout).
        var answerBeforeSilentUs: [Int64] = []
        /// The same for presses made once the bridge's log said the broker was silent.
        var answerOnceSilentUs: [Int64] = []
        /// Stop → the bridge's log saying the broker is silent (read every `pressSpacingMs`).
        var foundSilentMs: Int64 = 0
        var doorPresses = 0
        /// When each door pulse reached the relay, from the stop (ms).
        var doorPulsesMs: [Int64] = []
        /// Resume → the first press that reached its device.
        var resumeToCommandMs: Int64 = 0
        /// Presses answered without a command between the resume and the reconnect.
        var answeredWhileReconnecting = 0
        /// Press → command once the bridge was back.
        var afterResumeUs: [Int64] = []
    }

    static func run(_ rig: BenchRig, bridgeExecutable: String, afterCount: Int) throws -> Figures {
        var figures = Figures()
        try rig.devices.publishDoorState(isOpen: false)
        try rig.spawnBridge(executable: bridgeExecutable, run: "-broker", hasPulsedDoor: true)
        defer { rig.stopBridge() }
        try rig.waitUntilStarted()
        _ = rig.recorder.waitUntilQuiet(quietMs: 500, timeoutMs: 5_000)
        var toggle = 23
        func nextToggle() -> Int {
            toggle = (toggle + 37) % rig.sizes.toggleCount
            return toggle
        }
        let doorSlug = rig.sizes.slug(ofWidget: 0)

        rig.broker.send(SIGSTOP)
        var isStopped = true
        defer { if isStopped { rig.broker.send(SIGCONT) } }
        let stoppedUs = MonotonicClock.nowUs()
        var pressed = [try StallPress.make(rig, slug: doorSlug, action: BenchConfig.doorId)]
        var isSecondDoorPressed = false
        var silentSeenUs: Int64?
        while MonotonicClock.nowUs() - stoppedUs < stopMs * 1_000 {
            if silentSeenUs == nil, ProcFile.read(rig.bridgeLogPath)?.contains(silentLogText) == true {
                silentSeenUs = MonotonicClock.nowUs()
            }
            if !isSecondDoorPressed, MonotonicClock.nowUs() - stoppedUs >= secondDoorPressMs * 1_000 {
                pressed.append(try StallPress.make(rig, slug: doorSlug, action: BenchConfig.doorId))
                isSecondDoorPressed = true
            }
            let next = nextToggle()
            pressed.append(try StallPress.make(rig, slug: rig.sizes.slug(ofToggle: next), action: BenchConfig.actionId(next)))
            BenchPause.milliseconds(pressSpacingMs)
        }
        rig.broker.send(SIGCONT)
        isStopped = false
        let resumedUs = MonotonicClock.nowUs()
        guard let silentSeenUs else {
            throw BenchFailure("the bridge never found the stopped broker silent (see \(rig.bridgeLogPath))")
        }
        figures.foundSilentMs = (silentSeenUs - stoppedUs) / 1_000
        try collectAnswers(of: pressed, stoppedUs: stoppedUs, silentSeenUs: silentSeenUs, rig, into: &figures)
        BenchRun.progress("stopped broker: each press, written (ms from the stop) → answered after (ms): "
                          + figures.timeline.joined(separator: ", "))

        // Back: presses until one reaches its device (the bridge finds the broker
        // again with its backoff), the door once more at once, then timed presses.
        let reconnectDeadlineUs = resumedUs + 60_000_000
        while true {
            let commandIndex = rig.devices.commandCount
            let next = nextToggle()
            let press = try StallPress.make(rig, slug: rig.sizes.slug(ofToggle: next), action: BenchConfig.actionId(next))
            if let command = rig.devices.waitForCommand(from: commandIndex, timeoutMs: 2_000) {
                figures.resumeToCommandMs = (command.arrivedUs - resumedUs) / 1_000
                break
            }
            guard press.answer(in: rig, timeoutMs: 5_000) != nil else {
                throw BenchFailure("a press after the broker resumed was neither carried out nor answered (see \(rig.bridgeLogPath))")
            }
            figures.answeredWhileReconnecting += 1
            guard MonotonicClock.nowUs() < reconnectDeadlineUs else {
                throw BenchFailure("the bridge did not command a device within 60 s of the broker resuming (see \(rig.bridgeLogPath))")
            }
        }
        let thirdDoor = try StallPress.make(rig, slug: doorSlug, action: BenchConfig.doorId)
        guard thirdDoor.answer(in: rig, timeoutMs: 10_000) != nil else {
            throw BenchFailure("the door press after the broker resumed was never answered (see \(rig.bridgeLogPath))")
        }
        figures.doorPresses += 1
        _ = rig.recorder.waitUntilQuiet(quietMs: 500, timeoutMs: 5_000)
        for _ in 0..<afterCount { figures.afterResumeUs.append(try PressScenario.commandLatencyUs(rig, toggle: nextToggle())) }
        // A late pulse would have come by now (the broker passes on what it had read at once).
        figures.doorPulsesMs = rig.devices.doorPulsesUs.map { ($0 - stoppedUs) / 1_000 }
        let pulsesUs = rig.devices.doorPulsesUs
        for (earlier, later) in zip(pulsesUs, pulsesUs.dropFirst()) where later - earlier < Int64(BenchConfig.doorTravelTimeMs) * 1_000 {
            throw BenchFailure("two door pulses reached the relay \((later - earlier) / 1_000) ms apart "
                               + "(travel time \(BenchConfig.doorTravelTimeMs) ms; pulses at \(figures.doorPulsesMs) ms from the stop)")
        }
        return figures
    }

    /// Every press made during the stop must be answered; the answer times, by kind.
    private static func collectAnswers(of pressed: [StallPress], stoppedUs: Int64, silentSeenUs: Int64, _ rig: BenchRig,
                                       into figures: inout Figures) throws {
        for press in pressed {
            guard let answer = press.answer(in: rig, timeoutMs: 15_000) else {
                throw BenchFailure("the press of \(press.slug)/\(press.action) during the broker's stop was never answered "
                                   + "(see \(rig.bridgeLogPath))")
            }
            figures.timeline.append("\((press.writtenUs - stoppedUs) / 1_000)\(press.action == BenchConfig.doorId ? " door" : "")"
                                    + " → \((answer.arrivedUs - press.writtenUs) / 1_000)")
            if press.action == BenchConfig.doorId {
                figures.doorPresses += 1
                continue
            }
            let us = answer.arrivedUs - press.writtenUs
            figures.answerUs.append(us)
            if press.writtenUs >= silentSeenUs {
                figures.answerOnceSilentUs.append(us)
            } else {
                figures.answerBeforeSilentUs.append(us)
            }
        }
    }
}
