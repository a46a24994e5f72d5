import Glibc

/// Where a byte first occurs in a buffer, looked for with `memchr` (the readers'
/// one way to find a line's end in bytes from the network).
enum ByteSearch {
    /// The index of the first `byte` in `bytes[start..<end]`, nil when there is none.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        guard let base = bytes.baseAddress, start < end, end <= bytes.count else { return nil }
        return memchr(base + start, Int32(byte), end - start).map { base.distance(to: UnsafeRawPointer($0)) }
    }
}
