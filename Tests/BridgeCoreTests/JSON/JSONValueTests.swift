import Testing
@testable import BridgeCore

@Suite struct JSONValueTests {
    @Test(arguments: [
        ("{\"a\":1,\"b\":[true,false,null],\"c\":\"x\\ny\"}", "{\"a\":1,\"b\":[true,false,null],\"c\":\"x\\ny\"}"),
        ("  [1.5, -2, 3e2]  ", "[1.5,-2,300]"),
        ("\"\\u00e9\\ud83d\\ude00\"", "\"é😀\""),
        ("{\"z\":1,\"a\":2}", "{\"z\":1,\"a\":2}"),
    ])
    func roundTrips(input: String, expected: String) throws {
        #expect(try JSONValue.parse(input).serialized() == expected)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "01", "\"\u{01}\"", "tru", "1 2", "\"\\ud800\""])
    func rejectsInvalid(input: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(input) }
    }

    /// A string without escapes is made from its bytes at once; one with an
    /// escape anywhere reads on byte by byte from there: the same values.
    @Test(arguments: [
        (#""plain é ✓""#, "plain é ✓"),
        (#""""#, ""),
        (#""\"lead""#, "\"lead"),
        (#""mid\ndle""#, "mid\ndle"),
        (#""tail\\""#, "tail\\"),
        (#""a\tb\u00e9c""#, "a\tbéc"),
    ])
    func readsStringsWithAndWithoutEscapes(input: String, expected: String) throws {
        #expect(try JSONValue.parse(input) == .string(expected))
        #expect(try JSONValue.parse("{\(input):\(input)}")[expected] == .string(expected))
    }

    @Test(arguments: ["\"abc", "\"ab\\", "\"a\\nb", "\"a\u{01}b\"", "\"a\\nb\u{1F}\""])
    func refusesBrokenStrings(input: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(input) }
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
    }

    @Test func readsDottedPaths() throws {
        let value = try JSONValue.parse("{\"a\":{\"b\":{\"c\":\"on\"}}}")
        #expect(value.value(atPath: ["a", "b", "c"])?.stringValue == "on")
        #expect(value.value(atPath: ["a", "x"]) == nil)
    }
}
