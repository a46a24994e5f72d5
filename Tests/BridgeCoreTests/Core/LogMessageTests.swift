import Testing
@testable import BridgeCore

/// Issue 12, item 7: a core message's kind is its template, so the shell can
/// rate-limit by kind however unique the text is.
@Suite("Log messages: kind is the template")
struct LogMessageTests {
    struct KindCase: Sendable, CustomTestStringConvertible {
        let name: String
        let message: LogMessage
        let text: String
        let kind: String
        var testDescription: String { name }
    }

    static let inner: LogMessage = "expired \(5_001) ms ago"

    static let kindCases: [KindCase] = [
        KindCase(name: "a literal is its own kind", message: "mqtt disconnected",
                 text: "mqtt disconnected", kind: "mqtt disconnected"),
        KindCase(name: "each value is {}", message: "press \("evt_1") \(ActionKey(slug: "lights", actionId: "x")): unknown action",
                 text: "press evt_1 lights/x: unknown action", kind: "press {} {}: unknown action"),
        KindCase(name: "numbers and optionals too", message: "publish of \("lights") failed (HTTP \(Optional(503) ?? 0)); retrying in \(Int64(800)) ms",
                 text: "publish of lights failed (HTTP 503); retrying in 800 ms", kind: "publish of {} failed (HTTP {}); retrying in {} ms"),
        KindCase(name: "a message within a message lends its kind", message: "press \("evt_2") \("lights/fan"): \(inner)",
                 text: "press evt_2 lights/fan: expired 5001 ms ago", kind: "press {} {}: expired {} ms ago"),
        KindCase(name: "a configured value is part of the kind", message: "action '\(configured: "porch")' (widget \(configured: "lights")): ignoring payload '\("x1")'",
                 text: "action 'porch' (widget lights): ignoring payload 'x1'", kind: "action 'porch' (widget lights): ignoring payload '{}'"),
        KindCase(name: "concatenated parts concatenate kinds", message: "skipping an event whose id is \(70_000) bytes " + "(at most \(128) bytes)",
                 text: "skipping an event whose id is 70000 bytes (at most 128 bytes)", kind: "skipping an event whose id is {} bytes (at most {} bytes)"),
        KindCase(name: "an action and text beyond ASCII, byte for byte",
                 message: "press \("évt_1") \(ActionKey(slug: "séjour", actionId: "lampe 💡")): \(Int64(-3)) ms",
                 text: "press évt_1 séjour/lampe 💡: -3 ms", kind: "press {} {}: {} ms"),
        KindCase(name: "an explicit kind", message: LogMessage("anything \u{1B} at all", kind: "report"),
                 text: "anything \u{1B} at all", kind: "report"),
    ]

    @Test(arguments: kindCases)
    func theKindIsTheTemplate(_ testCase: KindCase) {
        #expect(testCase.message.text == testCase.text)
        #expect(testCase.message.kind == testCase.kind)
        #expect(testCase.message.isRateLimited)
        #expect("\(testCase.message)" == testCase.text)
    }

    @Test func uniqueValuesGiveOneKind() {
        let kinds = Set((0..<1_000).map { index -> String in
            let message: LogMessage = "skipping malformed event \("evt_\(index)"): \("data is not JSON \(index)")"
            return message.kind
        })
        #expect(kinds == ["skipping malformed event {}: {}"])
    }

    @Test func anExemptMessageKeepsItsTextAndKind() {
        let message: LogMessage = "inbox full: \(3) inputs dropped"
        let exempt = message.exemptFromRateLimit
        #expect(exempt.text == message.text && exempt.kind == message.kind)
        #expect(!exempt.isRateLimited)
        #expect(!(exempt + " and more").isRateLimited)
    }

    /// The core's own messages: presses with unique ids and names are one kind,
    /// and names from an event are cut with a marker.
    @Test func pressesForUnknownActionsShareAKindAndTheirNamesAreCut() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "OFF"), ("stat/fountain/POWER", "OFF")])
        var messages: [LogMessage] = []
        for index in 0..<3 {
            let name = "ghost_\(index)_" + String(repeating: "g", count: 60_000)
            let effects = harness.press(name, id: "evt_ghost_\(index)")
            messages += effects.compactMap { if case .log(.warning, let message) = $0 { message } else { nil } }
        }
        #expect(messages.count == 3)
        #expect(Set(messages.map(\.kind)).count == 1, "\(messages.map(\.kind))")
        for message in messages {
            #expect(message.text.unicodeScalars.count < 200, "\(message.text.prefix(300))")
            #expect(message.text.contains("…[+"), "a cut name is marked")
        }
    }

    @Test func anUnknownTypeIsCutToo() {
        var harness = BridgeHarness()
        let type = "widget.other." + String(repeating: "t", count: 50_000)
        let effects = harness.send(.streamEvent(StreamEvent(
            id: String(repeating: "i", count: 50_000), type: type, data: "{\"type\":\"\(type)\"}")))
        let texts = effects.compactMap { if case .log(_, let message) = $0 { message.text } else { nil } }
        #expect(texts.count == 1)
        #expect(texts.allSatisfy { $0.unicodeScalars.count < 250 }, "\(texts.map { $0.prefix(300) })")
    }
}
