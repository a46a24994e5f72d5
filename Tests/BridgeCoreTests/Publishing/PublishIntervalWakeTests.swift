import Testing
@testable import BridgeCore

/// Issue 23: the publish interval's timer is quiet (`BridgeTimer.isQuiet`): the
/// shell does not wake at its end unless the core asks (`wakeForTimer`), which
/// it does once an interval, and only when a change is actually held back. A
/// wake with nothing held back cost ~60 µs of a small board's CPU per PATCH.
@Suite("Politeness: the interval's end wakes the shell only for a held-back change")
struct PublishIntervalWakeTests {
    static let interval = BridgeTimer.publishInterval(slug: "living-room")

    /// What happens after the leading state-only PATCH (fan OFF) started.
    enum Step: Sendable, CustomStringConvertible {
        /// The service acknowledges the PATCH in flight.
        case answer
        case fan(on: Bool)
        case fountain(on: Bool)
        /// A button press: answered at once, the interval restarts.
        case pressButton
        /// The interval's timer fires (late or on time, the core cannot tell).
        case intervalEnds

        var description: String {
            switch self {
            case .answer: "answer"
            case .fan(let on): "fan \(on ? "ON" : "OFF")"
            case .fountain(let on): "fountain \(on ? "ON" : "OFF")"
            case .pressButton: "press"
            case .intervalEnds: "interval ends"
            }
        }
    }

    /// (what happens, how many wakes the core asks for, whether the tile ends on the
    /// device's state once the interval has ended)
    @Test(arguments: [
        ([Step.answer], 0),
        ([.answer, .fan(on: true)], 1),
        ([.answer, .fan(on: true), .fountain(on: true), .fan(on: false)], 1),
        ([.answer, .fan(on: false)], 0),                        // the same state again
        ([.fan(on: true), .answer], 1),                         // changed while in flight
        ([.fan(on: true), .fan(on: false), .answer], 0),        // and back before the answer
        ([.answer, .fan(on: true), .pressButton, .answer], 1),  // the press took the change along
        ([.answer, .pressButton, .answer, .fan(on: true)], 1),  // the restarted interval asks again
        ([.answer, .intervalEnds, .fan(on: true)], 0),          // after the interval: at once
        ([.answer, .fan(on: true), .intervalEnds, .answer, .fan(on: false)], 2),
    ])
    func theCoreAsksForAWakeOnlyWhenAChangeIsHeldBack(steps: [Step], wakes: Int) {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        var inFlight = harness.message("home/fan/state", "{\"power\":\"OFF\"}").patches
        #expect(inFlight.count == 1)
        var effects: [BridgeEffect] = []
        for step in steps {
            let out: [BridgeEffect]
            switch step {
            case .answer:
                guard let patch = inFlight.first else { Issue.record("no PATCH in flight at \(steps)"); return }
                out = harness.send(.patchCompleted(slug: patch.slug, requestId: patch.requestId, outcome: .status(200)))
            case .fan(let on): out = harness.message("home/fan/state", on ? "{\"power\":\"ON\"}" : "{\"power\":\"OFF\"}")
            case .fountain(let on): out = harness.message("stat/fountain/POWER", on ? "ON" : "OFF")
            case .pressButton: out = harness.press("feed_cat", kind: "button", value: nil, id: "evt_cat")
            case .intervalEnds: out = harness.send(.timerFired(Self.interval))
            }
            effects += out
            inFlight = out.patches.isEmpty && !(step.isAnswer) ? inFlight : out.patches
        }
        #expect(effects.filter { $0 == .wakeForTimer(Self.interval) }.count == wakes, "\(steps): \(effects)")
        // Whatever was held back goes out when the interval ends: nothing is lost.
        harness.ackAll(inFlight.map { .sendPatch($0) })
        harness.endPublishIntervals()
        #expect(harness.bridge.acknowledgedBody(slug: "living-room") == harness.bridge.renderedBody(slug: "living-room"))
    }

    @Test func theIntervalIsAQuietTimerAndTheOthersAreNot() {
        #expect(Self.interval.isQuiet)
        let others: [BridgeTimer] = [.settle, .publishRetry(slug: "w"), .silenceCheck, .nearMissProbe, .eventStreamOpenWait,
                                     .confirm(ActionKey(slug: "w", actionId: "a"))]
        #expect(others.allSatisfy { !$0.isQuiet })
    }

    /// A PATCH's acknowledgement with nothing changed since it was rendered does
    /// not render the widget again (the states' version says so).
    @Test func anAnswerWithNothingChangedRendersNothing() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let leading = harness.message("home/fan/state", "{\"power\":\"OFF\"}").patches[0]
        let version = harness.bridge.states.version
        harness.send(.patchCompleted(slug: "living-room", requestId: leading.requestId, outcome: .status(200)))
        #expect(harness.bridge.states.version == version)
        #expect(harness.bridge.publishers["living-room"]?.acknowledgedStatesVersion == version)
        #expect(harness.bridge.publishers["living-room"]?.isIntervalWakeRequested == false)
    }

    /// A reload rebuilds the states (their version moves on): a widget whose
    /// template changed is rendered again, not taken for unchanged.
    @Test func aReloadThatChangesALabelPublishesIt() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        var config = BridgeConfig.sample
        config.widgets[0].actions[0].label += " (renamed)"
        let reloaded = harness.send(.configReloaded(config))
        #expect(reloaded.patches.first { $0.slug == "living-room" }?.body.contains("(renamed)") == true)
    }
}

extension PublishIntervalWakeTests.Step {
    var isAnswer: Bool { if case .answer = self { true } else { false } }
}
