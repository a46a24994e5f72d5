import ShellSupport

/// One press made while a peer stalls, as the bench saw it: its event written on
/// the stream, and how many PATCHes had arrived before it (its answer comes later).
struct StallPress {
    var slug: String
    var action: String
    /// The state a toggle's press asks for (nil for a pulse).
    var requested: Bool?
    var writtenUs: Int64
    var patchIndex: Int

    /// Presses `action` of `slug` and waits for its event on the stream.
    static func make(_ rig: BenchRig, slug: String, action: String) throws -> StallPress {
        let frameIndex = rig.recorder.frameCount
        let patchIndex = rig.recorder.patchCount
        let outcome = rig.simulator.press(phone: BenchRig.phone, widget: slug, action: action)
        guard outcome.isAccepted else {
            throw BenchFailure("the simulator refused a press of \(slug)/\(action): \(outcome.refusal?.rawValue ?? "?")")
        }
        guard let frame = rig.recorder.waitForFrame(at: frameIndex, timeoutMs: 5_000) else {
            throw BenchFailure("the press of \(slug)/\(action) was not written on the event stream")
        }
        return StallPress(slug: slug, action: action, requested: frame.pressData?["value"]?.boolValue,
                          writtenUs: frame.writtenUs, patchIndex: patchIndex)
    }

    /// Presses `toggle` and times event written → its command at the device, without
    /// waiting for the confirming PATCH (a stalled API holds it back).
    static func commandLatencyUs(_ rig: BenchRig, toggle: Int) throws -> (press: StallPress, us: Int64) {
        let commandIndex = rig.devices.commandCount
        let press = try make(rig, slug: rig.sizes.slug(ofToggle: toggle), action: BenchConfig.actionId(toggle))
        guard let command = rig.devices.waitForCommand(from: commandIndex, timeoutMs: 5_000) else {
            throw BenchFailure("no command arrived for the press of \(press.action) (see \(rig.bridgeLogPath))")
        }
        guard command.toggle == toggle, command.isOn == press.requested else {
            throw BenchFailure("the press of \(press.action) gave a command for d\(command.toggle) (\(command.isOn))")
        }
        rig.states[toggle] = command.isOn
        return (press, command.arrivedUs - press.writtenUs)
    }

    /// The press's answer as the phone sees it: the first PATCH of its widget after its
    /// event was written (any update ends the phone's wait), waiting up to `timeoutMs`.
    func answer(in rig: BenchRig, timeoutMs: Int) -> PatchArrival? {
        rig.recorder.waitForPatch(from: patchIndex, timeoutMs: timeoutMs) { [slug, writtenUs] in
            $0.slug == slug && $0.arrivedUs >= writtenUs
        }
    }
}
