import BridgeCore
import CurlShell
import Testing

@Suite("WHATWG event-stream parsing")
struct SSEParserTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var chunks: [String]
        var outputs: [SSEParser.Output]
        var description: String { name }
    }

    static func event(_ data: String, type: String = "message", id: String? = nil) -> SSEParser.Output {
        .event(StreamEvent(id: id, type: type, data: data))
    }

    static let cases: [Case] = [
        Case(name: "LF lines", chunks: ["data: a\n\n"], outputs: [event("a")]),
        Case(name: "CRLF lines", chunks: ["data: a\r\n\r\n"], outputs: [event("a")]),
        Case(name: "CR lines", chunks: ["data: a\r\r"], outputs: [event("a")]),
        Case(name: "CRLF split across chunks", chunks: ["data: a\r", "\n\r", "\n"], outputs: [event("a")]),
        Case(name: "long runs up to a CR, an LF, a chunk's end", chunks: ["data: " + String(repeating: "x", count: 600) + "\rdata: y",
                                                                        String(repeating: "z", count: 300) + "\n\r\n"],
             outputs: [event(String(repeating: "x", count: 600) + "\ny" + String(repeating: "z", count: 300))]),
        Case(name: "multi-line data joined with LF", chunks: ["data: a\ndata:b\ndata:  c\n\n"], outputs: [event("a\nb\n c")]),
        Case(name: "event type and id", chunks: ["id: 7\nevent: widget.action.v1\ndata: {}\n\n"],
             outputs: [event("{}", type: "widget.action.v1", id: "7")]),
        Case(name: "id carries over", chunks: ["id: 1\ndata: x\n\ndata: y\n\n"], outputs: [event("x", id: "1"), event("y", id: "1")]),
        Case(name: "id with NUL ignored", chunks: ["id: 1\n\nid: 2\u{0}x\ndata: y\n\n"], outputs: [event("y", id: "1")]),
        Case(name: "comments ignored", chunks: [": keepalive\n\n: more\ndata: z\n\n"], outputs: [event("z")]),
        Case(name: "no data: nothing dispatched", chunks: ["event: x\n\n"], outputs: []),
        Case(name: "retry digits", chunks: ["retry: 2500\n\n"], outputs: [.retry(2500)]),
        Case(name: "retry non-digits ignored", chunks: ["retry: 25s\nretry: -1\n\n"], outputs: []),
        Case(name: "field without colon", chunks: ["data\n\n"], outputs: [event("")]),
        Case(name: "unknown field ignored", chunks: ["foo: bar\ndata: q\n\n"], outputs: [event("q")]),
        Case(name: "BOM at the start", chunks: ["\u{FEFF}data: b\n\n"], outputs: [event("b")]),
        Case(name: "incomplete event waits", chunks: ["data: a\n"], outputs: []),
        Case(name: "one space only stripped", chunks: ["data:  two\n\n"], outputs: [event(" two")]),
    ]

    @Test(arguments: cases)
    func parses(_ testCase: Case) {
        var parser = SSEParser()
        var outputs: [SSEParser.Output] = []
        for chunk in testCase.chunks { outputs += parser.feed(Array(chunk.utf8)) }
        #expect(outputs == testCase.outputs)
    }

    @Test func byteByByteEqualsWhole() {
        let stream = "\u{FEFF}id: e1\r\nevent: widget.action.v1\r\ndata: {\"a\":1}\r\ndata: 2\r\n\r\n: c\rdata: x\r\r"
        var whole = SSEParser()
        let expected = whole.feed(Array(stream.utf8))
        var split = SSEParser()
        var outputs: [SSEParser.Output] = []
        for byte in stream.utf8 { outputs += split.feed([byte]) }
        #expect(outputs == expected)
        #expect(expected.count == 2)
    }

    @Test func lastEventIdIsSetAtDispatchNotBefore() {
        var parser = SSEParser()
        _ = parser.feed(Array("id: 1\ndata: a\n\nid: 2\ndata: b\n".utf8))
        #expect(parser.lastEventId == "1", "an event cut off mid-way must be asked for again")
        _ = parser.feed(Array("\n".utf8))
        #expect(parser.lastEventId == "2")
    }

    @Test func oversizedEventsAreSkippedAndReported() {
        var parser = SSEParser(maxEventBytes: 64)
        let big = "data: " + String(repeating: "x", count: 200) + "\n\n"
        let outputs = parser.feed(Array((big + "data: ok\n\n").utf8))
        #expect(outputs == [.oversized, Self.event("ok")])
    }

    @Test func theWholeOversizedEventIsSkippedNotJustItsFirstLine() {
        var parser = SSEParser(maxEventBytes: 64)
        let event = "data: " + String(repeating: "x", count: 100) + "\ndata: {\"tail\":1}\n\ndata: ok\n\n"
        #expect(parser.feed(Array(event.utf8)) == [.oversized, Self.event("ok")])
    }

    /// Session 3 review: a 30,000-byte `id:` was sent back as `Last-Event-ID` on every
    /// reconnect. Ids over the bound are forgotten (an event with one carries no id).
    @Test func anIdOverTheBoundIsNotRemembered() {
        var parser = SSEParser()
        let longId = String(repeating: "i", count: 30_000)
        let outputs = parser.feed(Array("id: e1\ndata: a\n\nid: \(longId)\ndata: b\n\n".utf8))
        #expect(outputs == [Self.event("a", id: "e1"), Self.event("b", id: nil)])
        #expect(parser.lastEventId == nil)
        let atTheBound = String(repeating: "j", count: SSEParser.maxEventIdBytes)
        _ = parser.feed(Array("id: \(atTheBound)\ndata: c\n\n".utf8))
        #expect(parser.lastEventId == atTheBound)
    }

    @Test func aNewStreamAllowsABOMAgainAndKeepsTheId() {
        var parser = SSEParser()
        _ = parser.feed(Array("id: 9\ndata: a\n\n".utf8))
        parser.resetStream()
        #expect(parser.lastEventId == "9")
        #expect(parser.feed(Array("\u{FEFF}data: b\n\n".utf8)) == [Self.event("b", id: "9")])
    }

    /// A line is appended as one run up to its end: at the cap (a line and the event's
    /// data of exactly `maxEventBytes` fit, one byte more does not) a whole chunk gives
    /// what the bytes one by one give, and the same as the chunk read in place.
    @Test(arguments: [-1, 0, 1])
    func aRunAtTheCapEqualsTheBytesOneByOne(overCap: Int) {
        let maxEventBytes = 32
        let first = "data:" + String(repeating: "a", count: 10)  // 15 bytes, 10 of data + LF
        let second = "data:" + String(repeating: "b", count: maxEventBytes - 11 - 5 + overCap)
        let stream = Array((first + "\n" + second + "\n\ndata: next\n\n").utf8)
        var whole = SSEParser(maxEventBytes: maxEventBytes)
        let expected = whole.feed(stream)
        var inPlace = SSEParser(maxEventBytes: maxEventBytes)
        #expect(stream.withUnsafeBytes { inPlace.feed($0) } == expected)
        var single = SSEParser(maxEventBytes: maxEventBytes)
        var outputs: [SSEParser.Output] = []
        for byte in stream { outputs += single.feed([byte]) }
        #expect(outputs == expected)
        let fitting: String = String(repeating: "a", count: 10) + "\n" + String(repeating: "b", count: maxEventBytes - 16 + overCap)
        let firstOutput: SSEParser.Output = overCap > 0 ? .oversized : Self.event(fitting)
        #expect(expected.first == firstOutput)
    }
}

@Suite("SSE reconnect policy")
struct SSEReconnectPolicyTests {
    @Test(arguments: [(0, 500), (-5, 500), (250, 500), (2_500, 2_500), (Int.max, 300_000), (Int.min, 500)])
    func retryIsClamped(serverRetryMs: Int, expectedMs: Int) {
        #expect(SSEReconnectPolicy.clampedRetryMs(serverRetryMs) == expectedMs)
    }

    @Test(arguments: [0, 1, 5, 31, 64, Int.max])
    func delaysStayWithinTheClampedRangeForAnyInput(failures: Int) {
        var random = SplitMix64(seed: UInt64(truncatingIfNeeded: failures))
        for retryMs in [0, 1, 1_000, Int.max, Int.min] {
            for _ in 0..<50 {
                let delayMs = SSEReconnectPolicy.delayMs(retryMs: retryMs, failures: failures, capMs: 30_000, using: &random)
                #expect(delayMs >= 250 && delayMs <= 300_000, "retry \(retryMs), failures \(failures): \(delayMs)")
            }
        }
    }

    @Test func failuresDoubleTheCeilingUpToTheCap() {
        let ceilings = (0..<8).map { SSEReconnectPolicy.backoff(retryMs: 500, capMs: 30_000).ceilingMs(retry: $0) }
        #expect(ceilings == [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000])
        #expect(SSEReconnectPolicy.backoff(retryMs: 120_000, capMs: 30_000).ceilingMs(retry: 3) == 120_000)
    }

    /// (opened, events, open for ms, found dead) → healthy. Session 3 review: `retry: 1`,
    /// one event and a hang-up used to count as healthy (~2.7 GETs/s for ever).
    @Test(arguments: [
        (true, 0, Int64(5), false, false),
        (true, 0, 60_000, false, true),
        (true, 1, 5, false, false),
        (true, 1_000, 9_999, false, false),
        (true, 1, 10_000, false, true),
        (true, 1, 60_000, true, true),
        (true, 0, 60_000, true, false),
        (false, 0, 0, false, false),
    ] as [(Bool, Int, Int64, Bool, Bool)])
    func aStreamThatLivedUnderTenSecondsIsAFailureWhateverItSent(opened: Bool, events: Int, openMs: Int64, died: Bool, healthy: Bool) {
        #expect(SSEReconnectPolicy.wasHealthy(opened: opened, eventCount: events, openMs: openMs, died: died) == healthy)
    }

    @Test func hugeRetryDigitsSaturate() {
        var parser = SSEParser(maxEventBytes: 1024, lastEventId: nil)
        let outputs = parser.feed(Array("retry: 99999999999999999999999999\n\n".utf8))
        #expect(outputs == [.retry(Int.max)])
    }
}
