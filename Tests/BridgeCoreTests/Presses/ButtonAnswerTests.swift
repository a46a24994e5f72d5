import Testing
@testable import BridgeCore

/// A button with an active state answers its press with it: when it turns
/// active, or after `buttonAnswerWindowMs`, whichever comes first (issue 13).
@Suite struct ButtonAnswerTests {
    static let movie = ActionKey(slug: "living-room", actionId: "movie")

    /// The `active` of `movie` in each PATCH among `effects`.
    static func movieActive(_ effects: [BridgeEffect]) -> [Bool] {
        effects.patches.compactMap { patch in
            guard let body = try? JSONValue.parse(bytes: Array(patch.body.utf8)),
                  case .array(let actions)? = body["content"]?["actions"] else { return nil }
            return actions.first { $0["id"]?.stringValue == "movie" }?["active"]?.boolValue
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var activeAfterMs: Int64?
        var alreadyActive = false
        var expectAnswerAtPress: Bool
        var expectedActive: Bool
        var description: String { name }
    }

    @Test(arguments: [
        Case(name: "turns active after 200 ms: answered then, active", activeAfterMs: 200, expectAnswerAtPress: false, expectedActive: true),
        Case(name: "never turns active: answered at the window, idle", activeAfterMs: nil, expectAnswerAtPress: false, expectedActive: false),
        Case(name: "already active: answered at once, active", activeAfterMs: nil, alreadyActive: true, expectAnswerAtPress: true, expectedActive: true),
    ])
    func aSceneIsAnsweredWithItsActiveState(testCase: Case) throws {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        if testCase.alreadyActive { harness.ackAll(harness.message("home/scene/current", "movie")) }
        let atPress = harness.press("movie", kind: "button", value: nil, id: "evt_scene")
        #expect(atPress.mqttPublishes.map(\.topic) == ["home/scene/set"])
        #expect(!atPress.patches.isEmpty == testCase.expectAnswerAtPress, "\(atPress)")
        var answer = atPress
        if !testCase.expectAnswerAtPress {
            let timer = atPress.compactMap { effect -> Int64? in
                if case .startTimer(.confirm(Self.movie), let afterMs) = effect { return afterMs } else { return nil }
            }
            #expect(timer == [1_500], "the default window, well under the phone's 5 s")
            if let activeAfterMs = testCase.activeAfterMs {
                harness.advance(ms: activeAfterMs)
                answer = harness.message("home/scene/current", "movie")
                #expect(answer.contains(.cancelTimer(.confirm(Self.movie))))
            } else {
                harness.advance(ms: 1_500)
                answer = harness.send(.timerFired(.confirm(Self.movie)))
            }
        }
        #expect(Self.movieActive(answer) == [testCase.expectedActive], "\(answer)")
    }

    @Test func aButtonWithoutAnActiveTopicAnswersAtOnce() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let effects = harness.press("feed_cat", kind: "button", value: nil, id: "evt_feed")
        #expect(effects.patches.count == 1)
        #expect(!effects.contains { if case .startTimer(.confirm, _) = $0 { return true } else { return false } })
    }

    @Test func aZeroWindowAnswersAtOnce() {
        var config = BridgeConfig.sample
        config.timing.buttonAnswerWindowMs = 0
        var harness = BridgeHarness(config: config)
        harness.connectAndSettle()
        #expect(harness.press("movie", kind: "button", value: nil, id: "evt_now").patches.count == 1)
    }

    @Test func theWindowIsConfigurable() throws {
        let text = "aivi:\n  token_env: T\ntiming:\n  button_answer_window_ms: 800\nwidgets:\n  - slug: w\n    actions:\n      - id: a\n        label: A\n        publish: {topic: a, payload: b}\n"
        let config = try #require(ConfigLoader.load(text: text, fileName: "b.yaml").config)
        #expect(config.timing.buttonAnswerWindowMs == 800)
        let tooLong = text.replacingOccurrences(of: "800", with: "5000")
        #expect(ConfigLoader.load(text: tooLong, fileName: "b.yaml").errors.first?.message.contains("between 0 and 4000") == true)
    }
}
