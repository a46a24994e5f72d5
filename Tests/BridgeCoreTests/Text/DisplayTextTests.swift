import Testing
@testable import BridgeCore

/// `DisplayText.quoted` shows printable ASCII within its limit as it is (the
/// fast path of every event id a press logs and keeps) and everything else
/// escaped and cut exactly as `escapingControls(prefix(...))` does.
@Suite("DisplayText: quoted text, with its printable ASCII fast path")
struct DisplayTextTests {
    static let texts: [String] = [
        "", "evt_01JD9Q6W3K8Z", String(repeating: "a", count: 64), String(repeating: "a", count: 65),
        "tab\there", "new\nline", "del\u{7F}", "c1\u{85}", "bell\u{7}", "~ !", "café", "évt", "a\u{2028}b",
        "bidi\u{202E}x", "emoji 💡", String(repeating: "é", count: 64), String(repeating: "é", count: 65),
        String(repeating: "x", count: 63) + "\u{1B}", String(repeating: "x", count: 64) + "\u{1B}",
    ]

    @Test(arguments: texts, [0, 1, 16, 64, 80])
    func quotedIsTheEscapedPrefix(_ text: String, _ maxScalars: Int) {
        let slow = DisplayText.escapingControls(DisplayText.prefix(text, maxScalars: maxScalars))
        #expect(DisplayText.quoted(text, maxScalars: maxScalars) == slow)
    }

    @Test func printableASCIIWithinTheLimitIsShownAsItIs() {
        #expect(DisplayText.quoted("evt_01JD9Q6W3K8Z", maxScalars: 64) == "evt_01JD9Q6W3K8Z")
        #expect(DisplayText.quoted("abc", maxScalars: 2) == "ab…[+1]")
        #expect(DisplayText.quoted("a\u{7F}", maxScalars: 64) == "a\\u{7F}")
    }
}
