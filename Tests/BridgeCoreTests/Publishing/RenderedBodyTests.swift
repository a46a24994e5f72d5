import Testing
@testable import BridgeCore

/// A widget's body is built again only when what its tiles show changed; the
/// body reused is the one the states render, and a reload never reuses a body
/// of the old config.
@Suite("Rendering: a body is built only when what its tiles show changed")
struct RenderedBodyTests {
    @Test func aPatchAnsweredWithNothingShownChangedBuildsNoBody() throws {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let patch = try #require(harness.message("home/fan/state", "OFF").patches.first)
        let rendered = harness.bridge.bodyRenderCount
        let after = harness.send(.patchCompleted(slug: patch.slug, requestId: patch.requestId, outcome: .status(200)))
        #expect(after.patches.isEmpty)
        #expect(harness.bridge.bodyRenderCount == rendered, "the answer asked for the body again: the last one served")
        harness.endPublishIntervals()
        #expect(harness.message("home/fan/online", "true").patches.isEmpty, "an availability that shows nothing new")
        #expect(harness.bridge.bodyRenderCount == rendered)
    }

    @Test func aChangeShownIsRenderedAndEqualsARenderFromScratch() throws {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        for (topic, payload) in [("home/fan/state", "OFF"), ("home/fan/state", "ON"), ("home/fan/online", "false"),
                                 ("home/fan/online", "true"), ("home/scene/current", "movie")] {
            let rendered = harness.bridge.bodyRenderCount
            let patch = try #require(harness.message(topic, payload).patches.first, "\(topic) \(payload)")
            #expect(harness.bridge.bodyRenderCount == rendered + 1)
            let config = try #require(harness.bridge.config.widgets.first { $0.slug == patch.slug })
            #expect(patch.body == WidgetTemplate(widget: config).body(states: harness.bridge.states.dictionary), "\(topic) \(payload)")
            harness.ackAll([.sendPatch(patch)])
            harness.endPublishIntervals()
        }
    }

    @Test func aReloadThatChangesALabelSendsTheNewBodyForTheSameStates() throws {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        var config = BridgeConfig.sample
        config.widgets[0].actions[0].label = "Ceiling fan"
        let patches = harness.send(.configReloaded(config)).patches
        let patch = try #require(patches.first { $0.slug == "living-room" })
        #expect(patch.body.contains("Ceiling fan"))
        #expect(patch.body == WidgetTemplate(widget: config.widgets[0]).body(states: harness.bridge.states.dictionary))
    }
}
