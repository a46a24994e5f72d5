@testable import BridgeCore

/// Any config `check` accepts renders content the service accepts, in every
/// state: the config loader on fuzzed text, then each widget's PATCH body for a
/// handful of state assignments (the start with nothing heard, all on and
/// active, all unreachable, and mixes drawn from the input's first byte) is
/// parsed as JSON, checked by the simulator's `SwitchboardValidator` (the
/// service's rules, compiled in from `Sources/AiviSim`), held to the 64 KiB the
/// service takes and to `largestBodyBytes` (what `check` measured), and is the
/// serialization of the JSON tree `ContentRenderer` builds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(start, count)
    let seed = UInt64(input.byte())
    let result = ConfigLoader.load(text: String(decoding: input.rest(), as: UTF8.self), fileName: "fuzz.yaml")
    guard let config = result.config else { return 0 }
    for widget in config.widgets {
        checkEveryState(of: widget, seed: seed)
    }
    return 0
}

/// The state assignments rendered for one widget.
private func stateAssignments(_ widget: WidgetConfig, seed: UInt64) -> [[ActionKey: ActionState]] {
    let keys = widget.actions.map { ActionKey(slug: widget.slug, actionId: $0.id) }
    func all(_ make: () -> ActionState) -> [ActionKey: ActionState] {
        Dictionary(uniqueKeysWithValues: keys.map { ($0, make()) })
    }
    var onAndActive = ActionState()
    onAndActive.isOn = true
    onAndActive.isActive = true
    var unreachable = onAndActive
    unreachable.isAvailable = false
    var assignments = [[:], all { onAndActive }, all { unreachable }]
    var random = SplitMix64(seed: seed)
    for _ in 0..<3 {
        assignments.append(Dictionary(uniqueKeysWithValues: keys.map { key in
            var state = ActionState()
            let bits = random.next()
            state.isOn = bits & 3 == 0 ? nil : bits & 4 != 0
            state.isActive = bits & 8 != 0
            state.isAvailable = bits & 16 == 0 ? nil : bits & 32 != 0
            state.isGatewayAvailable = bits & 64 == 0 ? nil : bits & 128 != 0
            return (key, state)
        }))
    }
    return assignments
}

private func checkEveryState(of widget: WidgetConfig, seed: UInt64) {
    let template = WidgetTemplate(widget: widget)
    fuzzCheck(template.largestBodyBytes <= SwitchboardContentRules.maxPatchBodyBytes,
              "check accepted a widget whose largest body is over the service's limit")
    for states in stateAssignments(widget, seed: seed) {
        let body = template.body(states: states)
        fuzzCheck(body.utf8.count <= template.largestBodyBytes, "a body longer than largestBodyBytes")
        guard let parsed = try? JSONValue.parse(body) else {
            fuzzCheck(false, "a rendered body is not JSON")
            return
        }
        if case .failure(let problem) = SwitchboardValidator.content(ofBody: parsed) {
            fuzzCheck(false, "the service would refuse an accepted config's body: \(problem.message)")
        }
        fuzzCheck(body == ContentRenderer.bodyValue(widget: widget, states: states).serialized(),
                  "the template's bytes differ from the renderer's tree")
    }
}
