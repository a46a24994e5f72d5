import Testing
@testable import BridgeCore

/// Issue 21 section 4: `watch` shows a scene's targets and whether each holds,
/// and says when a message makes a scene active or inactive.
@Suite("Scenes: watch")
struct SceneWatchTests {
    @Test func watchSaysWhichTilesHoldAndWhenTheSceneTurns() throws {
        var session = WatchSession(config: try SceneFixture.config())
        let allOff = try #require(session.records.first { $0.key.actionId == "all_off" })
        #expect(allOff.stateWord == "not active")
        _ = session.message(topic: "porch/state", payload: Array("ON".utf8), elapsedMs: 1)
        _ = session.message(topic: "fountain/state", payload: Array("OFF".utf8), elapsedMs: 2)
        let turned = session.message(topic: "garage/state", payload: Array("closed".utf8), elapsedMs: 3)
        #expect(turned.map { "\($0.action) \($0.role) \($0.word)" } == ["home/garage state closed"])
        let evening = session.message(topic: "porch/state", payload: Array("OFF".utf8), elapsedMs: 4)
        #expect(evening.map { "\($0.action) \($0.role) \($0.word)" }
                == ["home/porch state off", "home/all_off scene active", "home/evening scene inactive"], "\(evening)")
        #expect(WatchFormat.human(evening[1]) == "+0.004s home/all_off scene porch/state 'OFF' -> active")
        _ = session.message(topic: "garage/state", payload: Array("opening".utf8), elapsedMs: 5)
        let rows = WatchFormat.humanSummary(session.records)
        #expect(rows.contains { $0.hasPrefix("home/all_off ") && $0.contains("not active")
                && $0.hasSuffix("porch off: holds, fountain off: holds, garage closed: is open, opening") }, "\(rows.joined(separator: "\n"))")
        let record = try #require(session.records.first { $0.key.actionId == "all_off" })
        #expect(WatchFormat.jsonSummary(record).contains(
            #""targets":[{"action":"porch","wants":"off","holds":true,"state":"off"},{"action":"fountain","wants":"off","holds":true,"state":"off"},{"action":"garage","wants":"off","holds":false,"state":"open, opening"}]"#),
            "\(WatchFormat.jsonSummary(record))")
    }
}
