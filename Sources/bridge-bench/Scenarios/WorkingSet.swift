/// Cache lines visited one after the other, each holding where the next one is, in a
/// shuffled order (a fixed one): no line's address is known before the last one is
/// read, as with a program's instructions after a jump, and no prefetcher guesses
/// it. The footprint of a process that runs more code and data at each wake than
/// `FloorRelay` does, scattered as a program's functions and heap objects are.
struct WorkingSet {
    private static let wordsPerLine = FloorRelay.cacheLineBytes / MemoryLayout<UInt32>.size
    /// At the first word of each line, the word index of the next line on the walk.
    private var words: [UInt32]
    let lines: Int
    /// Where the last walk ended: an index into `words`, so never negative.
    private(set) var lastWordIndex = 0

    /// 0, read from where the walks ended (so the compiler cannot leave them out).
    var exitStatus: Int32 { lastWordIndex < 0 ? 1 : 0 }

    init(lines: Int) {
        self.lines = lines
        var order = Array(0..<lines)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in order.indices.reversed() where index > 0 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            order.swapAt(index, Int((seed >> 33) % UInt64(index + 1)))
        }
        words = [UInt32](repeating: 0, count: lines * Self.wordsPerLine)
        for (position, line) in order.enumerated() {
            words[line * Self.wordsPerLine] = UInt32(order[(position + 1) % lines] * Self.wordsPerLine)
        }
    }

    /// Walks every line once, each read waiting for the one before.
    mutating func touch() {
        guard lines > 0 else { return }
        var index = lastWordIndex
        words.withUnsafeBufferPointer { buffer in
            for _ in 0..<lines { index = Int(buffer[index]) }
        }
        lastWordIndex = index
    }
}
