import Testing

@Test func aivisPlaceholder() { #expect(Bool(true)) }
