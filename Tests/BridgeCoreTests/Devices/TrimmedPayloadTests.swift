import Testing
@testable import BridgeCore

/// `PayloadReader.trimmedText` skips the trim by characters when the payload
/// starts and ends with printable ASCII: the same text as the trim gives.
@Suite struct TrimmedPayloadTests {
    /// The trim by characters (what every payload went through before).
    static func trimmedByCharacters(_ payload: [UInt8]) -> String {
        var scalars = Substring(String(decoding: payload, as: UTF8.self))
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    static let payloads: [[UInt8]] = [
        "ON", "off", " ON", "ON ", "\tON\r\n", "\n", "", " ", "{\"state\":\"ON\"}", " {\"a\":1} ",
        "a\u{301}", " \u{301}x", "x \u{301}", "x\u{00A0}", "\u{00A0}x", "x\u{2028}", "\u{3000}x\u{3000}", "\u{600}1",
        "x\u{85}", "\u{85}x", "é", "x é x", "\r\nx\r\n", "\u{0B}x\u{0C}", "x\u{0B}", "~", "!", "\u{7F}x\u{7F}",
    ].map { Array($0.utf8) } + [[0xFF, 0x41], [0x41, 0xFF], [0x41, 0xC3], [0x20, 0xE2, 0x80], [0x41, 0x80, 0x42]]

    @Test(arguments: payloads)
    func trimsAsTheCharactersDo(payload: [UInt8]) {
        #expect(PayloadReader.trimmedText(payload) == Self.trimmedByCharacters(payload))
        #expect(Array(PayloadReader.trimmedText(payload).utf8) == Array(Self.trimmedByCharacters(payload).utf8))
    }
}
