import Testing

@Test func shellPlaceholder() { #expect(Bool(true)) }
