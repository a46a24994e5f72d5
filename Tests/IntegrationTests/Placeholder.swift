import Testing

@Test func integPlaceholder() { #expect(Bool(true)) }
