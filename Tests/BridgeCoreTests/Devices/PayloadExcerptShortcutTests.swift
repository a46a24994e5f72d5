import Testing
@testable import BridgeCore

/// `PayloadExcerpt.make` shows printable ASCII within the limit as it is,
/// without the walk by scalars: the same excerpt as the walk makes.
@Suite struct PayloadExcerptShortcutTests {
    static let payloads: [[UInt8]] = [
        "", "ON", " off ", "{\"state\":\"ON\",\"linkquality\":90}", "~!", "tab\there", "line\nbreak", "del\u{7F}",
        "é", "x\u{85}y", String(repeating: "a", count: 8), String(repeating: "b", count: 9), String(repeating: "c", count: 40),
    ].map { Array($0.utf8) } + [[0xFF], [0x41, 0xC3], [0x00, 0x41]]

    @Test(arguments: payloads, [1, 8, 9, 96, 256])
    func excerptsAsTheWalkDoes(payload: [UInt8], limit: Int) {
        #expect(PayloadExcerpt.make(payload, limit: limit) == PayloadExcerpt.walked(payload, limit: limit))
    }
}
