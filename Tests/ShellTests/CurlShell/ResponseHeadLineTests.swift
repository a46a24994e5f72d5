@testable import CurlShell
import Testing

@Suite("Response head lines read as bytes, only the kept headers made Strings")
struct ResponseHeadLineTests {
    static func line(_ text: String) -> ResponseHeadLine {
        Array(text.utf8).withUnsafeBytes { ResponseHeadLine($0) }
    }

    static func field(_ text: String) -> (name: String, value: String)? {
        Array(text.utf8).withUnsafeBytes { bytes in
            guard case .field(let name, let value) = ResponseHeadLine(bytes) else { return nil }
            return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
    }

    @Test(arguments: [("HTTP/1.1 200 OK\r\n", 200), ("HTTP/2 429 \r\n", 429), ("HTTP/1.1 204\r\n", 204),
                      ("HTTP/1.1 OK\r\n", 0), ("HTTP/1.1 2000 x\r\n", 0), ("HTTP/1.1\r\n", 0)])
    func statusLines(text: String, code: Int) {
        guard case .status(let parsed) = Self.line(text) else { Issue.record("not a status line: \(text)"); return }
        #expect(parsed == code)
    }

    @Test func fieldsAreTrimmedAndTheNameKeptAsSent() {
        #expect(Self.field("Retry-After:  2 \r\n").map { [$0.name, $0.value] } == ["Retry-After", "2"])
        #expect(Self.field("X-Empty:\r\n").map { [$0.name, $0.value] } == ["X-Empty", ""])
        #expect(Self.field("Date: Sun, 29 Nov 2026 21:00:00 GMT\n").map { $0.value } == "Sun, 29 Nov 2026 21:00:00 GMT")
        #expect(Self.field("no colon here\r\n") == nil)
    }

    @Test func theBlankLineEndsTheHead() {
        guard case .end = Self.line("\r\n") else { Issue.record("CRLF is not the end"); return }
        guard case .end = Self.line("\n") else { Issue.record("LF is not the end"); return }
        guard case .other = Self.line(" \r\n") else { Issue.record("a blank with a space is no end"); return }
    }

    @Test func namesCompareInAnyCaseByBytes() {
        let name = Array("content-type".utf8)
        for text in ["Content-Type", "CONTENT-TYPE", "content-type"] {
            #expect(Array(text.utf8).withUnsafeBytes { ResponseHeadLine.name($0, is: name) })
        }
        #expect(!Array("Content-Typf".utf8).withUnsafeBytes { ResponseHeadLine.name($0, is: name) })
        #expect(!Array("Content-Type ".utf8).withUnsafeBytes { ResponseHeadLine.name($0, is: name) })
    }
}
