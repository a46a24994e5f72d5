import Testing
@testable import BridgeCore

@Suite("Decision 4: reload")
struct ReloadTests {
    @Test func keepsUnchangedStateResetsChangedTopicsAndReportsSubscriptions() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "ON"), ("stat/fountain/POWER", "ON")])
        var config = BridgeConfig.sample
        config.widgets[0].actions[1].stateSources = [StateSource(topic: "stat/fountain2/POWER")]
        config.widgets[0].actions[0].label = "Ceiling fan"
        let effects = harness.send(.configReloaded(config))
        #expect(harness.bridge.states[ActionKey(slug: "living-room", actionId: "fan")]?.isOn == true)
        #expect(harness.bridge.states[ActionKey(slug: "living-room", actionId: "fountain")]?.isOn == nil)
        #expect(effects.contains(.subscribe(["stat/fountain2/POWER"])))
        #expect(effects.contains(.unsubscribe(["stat/fountain/POWER", "stat/fountain/RESULT"])))
        #expect(effects.patches.map(\.slug) == ["living-room"])
        #expect(effects.patches.first?.body.contains("Ceiling fan") == true)
    }

    @Test func anIdenticalConfigPublishesNothing() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let effects = harness.send(.configReloaded(.sample))
        #expect(effects.patches.isEmpty)
        #expect(!effects.contains { if case .subscribe = $0 { true } else { false } })
    }

    @Test func removedWidgetsAndActionsAreForgotten() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        _ = harness.press("fan", value: false, id: "evt_1")
        var config = BridgeConfig.sample
        config.widgets.removeLast()
        config.widgets[0].actions.removeFirst()
        let effects = harness.send(.configReloaded(config))
        #expect(effects.contains(.cancelTimer(.confirm(ActionKey(slug: "living-room", actionId: "fan")))))
        #expect(harness.bridge.renderedBody(slug: "garden") == nil)
        #expect(harness.bridge.states[ActionKey(slug: "living-room", actionId: "fan")] == nil)
    }

    @Test func aReloadRetriesAPermanentRefusalAtOnceButKeepsARateLimitWait() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let first = harness.message("home/fan/state", "OFF").patches[0]
        harness.send(.patchCompleted(slug: "living-room", requestId: first.requestId, outcome: .status(404)))
        harness.endPublishIntervals()
        let afterReload = harness.send(.configReloaded(.sample))
        #expect(afterReload.patches.map(\.slug) == ["living-room"], "a 404 may be what the new config fixed")

        var limited = BridgeHarness()
        limited.connectAndSettle()
        let request = limited.message("home/fan/state", "OFF").patches[0]
        limited.send(.patchCompleted(slug: "living-room", requestId: request.requestId, outcome: .status(429, retryAfterMs: 30_000)))
        #expect(limited.send(.configReloaded(.sample)).patches.isEmpty, "Retry-After is still honoured")
    }

    /// Issue 41 §2: a reload that adds `status:` said only "config reloaded: 2 widgets, 4
    /// actions, +0/-0 topics", and the page was never served until a restart. Now it says a
    /// restart is needed, naming what changed; a reload of widgets alone does not.
    @Test func aChangeOnlyARestartAppliesIsSaid() throws {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        var config = BridgeConfig.sample
        config.status = StatusSettings()
        let effects = harness.send(.configReloaded(config))
        let warning = try #require(effects.compactMap { effect -> String? in
            if case .log(.warning, let message) = effect { return message.text } else { return nil }
        }.first)
        #expect(warning == "the changes to 'status' (added: the page is not served yet) take effect only at a restart: the running "
                + "bridge keeps the old ones until `sudo systemctl restart switchboard-bridge`")
        var moved = config
        moved.mqtt.port = 1884
        moved.status?.listen = "127.0.0.1:8788"
        moved.mqtt.zigbee2mqttBaseTopic = "z2m"
        #expect(Bridge.restartOnlyChanges(from: config, to: moved) == ["'mqtt'", "'status'"])
        #expect(Bridge.restartOnlyChanges(from: .sample, to: .sample).isEmpty)
        var widgetsOnly = config
        widgetsOnly.widgets[0].actions[0].label = "Ceiling fan"
        let quiet = harness.send(.configReloaded(widgetsOnly))
        #expect(!quiet.contains { if case .log(.warning, _) = $0 { true } else { false } })
    }
}
