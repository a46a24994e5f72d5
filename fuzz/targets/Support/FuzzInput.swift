/// The bytes libFuzzer hands a target, and helpers to carve them into the
/// pieces a target needs (choices, chunk boundaries, the rest as data).
struct FuzzInput {
    private let bytes: [UInt8]
    private var index = 0

    init(_ start: UnsafePointer<UInt8>?, _ count: Int) {
        bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    }

    /// A piece of a larger input, carved the same way.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next byte, or 0 once the input is used up.
    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// The next two bytes, little-endian.
    mutating func uint16() -> Int {
        Int(byte()) | Int(byte()) << 8
    }

    /// Everything not taken yet.
    mutating func rest() -> [UInt8] {
        defer { index = bytes.count }
        return Array(bytes[min(index, bytes.count)...])
    }

    /// Whether any byte is left to take.
    var hasMore: Bool { index < bytes.count }

    /// All of the input, whatever was taken.
    var all: [UInt8] { bytes }
}

/// `data` cut at up to `offsets.count` places (offsets taken modulo its length,
/// sorted, duplicates giving empty chunks): how a stream arrives in pieces.
func chunks(of data: [UInt8], cutAt offsets: [Int]) -> [[UInt8]] {
    guard !data.isEmpty else { return [data] }
    let cuts = offsets.map { $0 % (data.count + 1) }.sorted()
    var pieces: [[UInt8]] = []
    var start = 0
    for cut in cuts {
        pieces.append(Array(data[start..<cut]))
        start = cut
    }
    pieces.append(Array(data[start...]))
    return pieces
}

/// The chunk header used by the stream targets: one byte for how many cuts
/// (up to 15), then two bytes per cut offset; the stream is what follows.
func takeChunkedStream(_ input: inout FuzzInput) -> (whole: [UInt8], pieces: [[UInt8]]) {
    let cutCount = Int(input.byte() & 0x0F)
    let offsets = (0..<cutCount).map { _ in input.uint16() }
    let stream = input.rest()
    return (stream, chunks(of: stream, cutAt: offsets))
}

/// A target's invariant: traps with `message` when it does not hold. Unlike
/// `precondition`, whose message an `-O` build drops, the message is printed,
/// so a failing input says what broke.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
