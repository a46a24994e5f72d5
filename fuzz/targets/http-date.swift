@testable import BridgeCore

/// The `Date` header reader (the event stream's clock offset) on any text:
/// never a crash, also when the offset to the board's clock is computed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(start, count)
    let text = String(decoding: input.all, as: UTF8.self)
    _ = HTTPDate.milliseconds(from: text)
    _ = HTTPDate.serverClockOffsetMs(dateHeader: text, receivedAtMs: exampleNowMs)
    return 0
}
