import Glibc
import ShellSupport

/// Issue 38 item 6 in the bench: presses while the API host's name takes
/// `lookupDelayMs` to look up (`SWITCHBOARD_FAULT_LOOKUP_DELAY_MS`, as a slow DNS
/// server). A fresh bridge is given the simulator as `http://localhost:PORT`; its
/// first lookup (the event stream's and the PATCHes', one for both) takes the
/// delay, and its answer is kept 60 s (`NameResolver.ttlMs`). Once that has run
/// out, the next PATCH's connection is reset (the simulator's fault), so the
/// retry needs a new connection and a new lookup: the stall. Meanwhile the event
/// stream, connected before, goes on, and presses go on: each is timed from its
/// event written to its command at the device (MQTT), which must not wait for
/// the lookup; their confirming PATCHes do wait for it (that is the point of
/// looking names up off the loop: only what needs the name waits).
enum LookupStallPhase {
    static let faultVariable = NameResolver.faultDelayVariable
    /// How long the resolver keeps an answer (the daemon's `NameResolver.shared`).
    static let cacheMs: Int64 = NameResolver().ttlMs

    struct Figures {
        var lookupDelayMs: Int
        /// Presses of this bridge while no lookup was pending (its own idle).
        var idleUs: [Int64] = []
        /// Presses while the PATCH's lookup was pending.
        var stalledUs: [Int64] = []
        /// PATCHes the simulator accepted while the presses ran (0: the lookup held them all).
        var patchesDuringStall = 0
        /// From the PATCH that was reset to the first PATCH accepted after it.
        var resetToNextPatchMs: Int64 = 0
        /// From the last press to the PATCH showing every pressed tile in its asked state.
        var lastPressToConfirmedMs: Int64 = 0
    }

    static func run(_ rig: BenchRig, bridgeExecutable: String, isQuick: Bool, idleCount: Int) throws -> Figures {
        var result = Figures(lookupDelayMs: isQuick ? 5_000 : 25_000)
        let apiByName = "http://localhost:\(rig.simulator.port)"
        setenv(faultVariable, String(result.lookupDelayMs), 1)
        let spawned = Result { try rig.spawnBridge(executable: bridgeExecutable, run: "-lookup", apiBaseURL: apiByName) }
        unsetenv(faultVariable)
        try spawned.get()
        defer { rig.stopBridge() }
        try rig.waitUntilStarted(timeoutMs: result.lookupDelayMs + 30_000)
        // The lookup ended just before the first PATCH; its answer is kept `cacheMs` from then.
        let cachedUntilMs = MonotonicClock.nowMs() + cacheMs + 1_000
        var toggle = 11
        func nextToggle() -> Int {
            toggle = (toggle + 37) % rig.sizes.toggleCount
            return toggle
        }
        for _ in 0..<idleCount {
            result.idleUs.append(try PressScenario.commandLatencyUs(rig, toggle: nextToggle()))
        }
        _ = rig.recorder.waitUntilQuiet(quietMs: 500, timeoutMs: 5_000)
        while MonotonicClock.nowMs() < cachedUntilMs { BenchPause.milliseconds(100) }

        // The PATCH confirming this press is reset: its retry needs the name again.
        rig.simulator.resetNextPatches(count: 1)
        let resetUs = MonotonicClock.nowUs()
        let patchesBefore = rig.recorder.patchCount
        var pressed: [StallPress] = []
        let first = try StallPress.commandLatencyUs(rig, toggle: nextToggle())
        pressed.append(first.press)
        result.stalledUs.append(first.us)
        let windowEndUs = resetUs + Int64(result.lookupDelayMs - 3_000) * 1_000
        while MonotonicClock.nowUs() < windowEndUs {
            let next = try StallPress.commandLatencyUs(rig, toggle: nextToggle())
            pressed.append(next.press)
            result.stalledUs.append(next.us)
            BenchPause.milliseconds(isQuick ? 20 : 50)
        }
        result.patchesDuringStall = rig.recorder.patchCount - patchesBefore
        guard result.patchesDuringStall == 0 else {
            throw BenchFailure("\(result.patchesDuringStall) PATCHes got through while the API host's lookup should have been "
                               + "pending: the lookup stall did not happen (see \(rig.bridgeLogPath))")
        }
        try waitForConfirmations(of: pressed, rig, timeoutMs: result.lookupDelayMs + 30_000, into: &result)
        result.resetToNextPatchMs = (rig.recorder.patches(from: patchesBefore).first?.arrivedUs ?? resetUs) / 1_000 - resetUs / 1_000
        return result
    }

    /// Waits until every pressed tile shows the state its last press asked for.
    private static func waitForConfirmations(of pressed: [StallPress], _ rig: BenchRig, timeoutMs: Int,
                                             into result: inout Figures) throws {
        var asked: [String: (slug: String, isOn: Bool)] = [:]
        for press in pressed { if let requested = press.requested { asked[press.action] = (press.slug, requested) } }
        let from = pressed.first?.patchIndex ?? rig.recorder.patchCount
        var latestUs: Int64 = 0
        for (action, tile) in asked.sorted(by: { $0.key < $1.key }) {
            guard let shown = rig.recorder.waitForPatch(from: from, timeoutMs: timeoutMs, where: {
                $0.slug == tile.slug && $0.shows(action, on: tile.isOn)
            }) else {
                throw BenchFailure("\(action) was never confirmed after the API host's slow lookup (see \(rig.bridgeLogPath))")
            }
            latestUs = max(latestUs, shown.arrivedUs)
        }
        result.lastPressToConfirmedMs = (latestUs - (pressed.last?.writtenUs ?? latestUs)) / 1_000
    }
}
