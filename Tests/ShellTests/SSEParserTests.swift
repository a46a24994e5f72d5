import CurlShell
import Testing

/// One WHATWG event-stream rule: input chunks and what the parser must produce.
struct SSEParserCase: CustomTestStringConvertible, Sendable {
    let rule: String
    let chunks: [[UInt8]]
    let expected: [SSEParser.Output]
    var maxEventBytes = 65_536
    var testDescription: String { rule }

    init(_ rule: String, _ chunks: [String], _ expected: [SSEParser.Output], maxEventBytes: Int = 65_536) {
        self.rule = rule
        self.chunks = chunks.map { Array($0.utf8) }
        self.expected = expected
        self.maxEventBytes = maxEventBytes
    }

    init(_ rule: String, bytes: [[UInt8]], _ expected: [SSEParser.Output]) {
        self.rule = rule
        self.chunks = bytes
        self.expected = expected
    }
}

private func event(_ data: String, id: String = "", type: String = "message") -> SSEParser.Output {
    .event(SSEEvent(id: id, type: type, data: data))
}

@Suite("SSE parser (WHATWG event stream rules)")
struct SSEParserTests {
    static let cases: [SSEParserCase] = [
        .init("LF line endings", ["data: a\n\n"], [event("a")]),
        .init("CRLF line endings", ["data: a\r\n\r\n"], [event("a")]),
        .init("CR line endings", ["data: a\r\r"], [event("a")]),
        .init("CRLF split across chunks", ["data: a\r", "\n\r", "\n"], [event("a")]),
        .init("CR at chunk end then a new line", ["data: a\r", "\r"], [event("a")]),
        .init("mixed endings", ["data: a\rdata: b\r\ndata: c\n\n"], [event("a\nb\nc")]),
        .init("multi-line data joined with LF", ["data: one\ndata: two\n\n"], [event("one\ntwo")]),
        .init("one leading space removed", ["data:  two spaces\n\n"], [event(" two spaces")]),
        .init("no space after the colon", ["data:x\n\n"], [event("x")]),
        .init("field without colon is an empty value", ["data\n\n"], [event("")]),
        .init("empty data lines keep their LF", ["data\ndata\n\n"], [event("\n")]),
        .init("comments are ignored", [": keepalive\n\n: x\ndata: a\n: y\n\n"], [event("a")]),
        .init("event without data is not dispatched", ["event: ping\n\n"], []),
        .init("event type", ["event: widget.action.v1\ndata: a\n\n"], [event("a", type: "widget.action.v1")]),
        .init("event type resets after dispatch", ["event: t\ndata: a\n\ndata: b\n\n"], [event("a", type: "t"), event("b")]),
        .init("empty event type means message", ["event:\ndata: a\n\n"], [event("a")]),
        .init("id applies to the event and persists", ["id: 7\ndata: a\n\ndata: b\n\n"], [event("a", id: "7"), event("b", id: "7")]),
        .init("empty id resets it", ["id: 7\ndata: a\n\nid\ndata: b\n\n"], [event("a", id: "7"), event("b")]),
        .init("id with NUL is ignored", ["id: 1\ndata: a\n\nid: x\u{0}y\ndata: b\n\n"], [event("a", id: "1"), event("b", id: "1")]),
        .init("retry with digits", ["retry: 2500\n"], [.retry(milliseconds: 2500)]),
        .init("retry with non-digits ignored", ["retry: 25s\nretry: -1\nretry:\n"], []),
        .init("unknown fields ignored", ["foo: bar\ndata: a\nDATA: b\n\n"], [event("a")]),
        .init("field name is case-sensitive", ["Data: a\n\n"], []),
        .init("unterminated event is not dispatched", ["data: a\n"], []),
        .init("leading BOM skipped", ["\u{FEFF}data: a\n\n"], [event("a")]),
        .init("BOM split across chunks", bytes: [[0xEF], [0xBB], [0xBF], Array("data: a\n\n".utf8)], [event("a")]),
        .init("only the first BOM is skipped", ["\u{FEFF}\u{FEFF}data: a\n\n"], []),
        .init("partial BOM-like bytes kept", bytes: [[0xEF, 0x41], Array("\ndata: a\n\n".utf8)], [event("a")]),
        .init("byte-by-byte chunks", "id: 9\nevent: t\ndata: hé\n\n".map { String($0) }, [event("hé", id: "9", type: "t")]),
        .init("oversized event skipped, next one kept", ["data: " + String(repeating: "x", count: 100) + "\n\ndata: ok\n\n"], [.oversizedEvent(limitBytes: 32), event("ok")], maxEventBytes: 32),
        .init("oversized over many data lines", [String(repeating: "data: 0123456789\n", count: 10) + "\ndata: ok\n\n"], [.oversizedEvent(limitBytes: 32), event("ok")], maxEventBytes: 32),
        .init("oversized line without an end stays bounded", [String(repeating: "y", count: 1000), "\n\ndata: ok\n\n"], [.oversizedEvent(limitBytes: 32), event("ok")], maxEventBytes: 32),
    ]

    @Test(arguments: cases)
    func followsTheRule(_ testCase: SSEParserCase) {
        var parser = SSEParser(maxEventBytes: testCase.maxEventBytes)
        var outputs: [SSEParser.Output] = []
        for chunk in testCase.chunks {
            outputs += parser.feed(chunk)
        }
        #expect(outputs == testCase.expected)
    }

    @Test func resetDropsThePartialEventButKeepsTheLastId() {
        var parser = SSEParser()
        _ = parser.feed(Array("id: 5\ndata: a\n\ndata: partial\n".utf8))
        parser.reset()
        #expect(parser.lastEventId == "5")
        #expect(parser.feed(Array("\u{FEFF}data: b\n\n".utf8)) == [event("b", id: "5")])
    }

    @Test func initialLastEventIdIsUsed() {
        var parser = SSEParser(lastEventId: "restored")
        #expect(parser.feed(Array("data: a\n\n".utf8)) == [event("a", id: "restored")])
    }
}
