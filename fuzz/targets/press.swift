@testable import BridgeCore

/// A press event's data (JSON envelope and its timestamps) read and handled by
/// a connected, settled bridge on the example config: never a crash, whatever
/// the envelope, its ids, times or values.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(start, count)
    let offsetChoice = Int64(Int8(bitPattern: input.byte()))
    let data = String(decoding: input.rest(), as: UTF8.self)
    let event = StreamEvent(id: "evt_fuzz", type: PressEnvelope.eventType, data: data)
    _ = try? PressEnvelope.read(event)
    var bridge = readyBridge
    // The server's clock may be far off the board's: the Date header is hostile too.
    let offsetMs = offsetChoice * offsetChoice * offsetChoice * 1_000_000
    for _ in 0..<2 {  // twice: the second delivery is a duplicate
        _ = bridge.handle(BridgeInput(.streamEvent(event), boardClockMs: exampleNowMs, serverClockOffsetMs: offsetMs))
    }
    return 0
}
