@testable import CurlShell

/// The event-stream parser on any bytes, arriving cut at fuzzer-chosen places:
/// never a crash, and the pieces give exactly what the whole stream gives
/// (events, retries, oversized skips, the last event id).
///
/// Input: one byte choosing the event cap (64 bytes to 64 KiB), then the
/// chunk header of `takeChunkedStream` (cut count, two bytes per cut), then
/// the stream.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(start, count)
    let capChoice = Int(input.byte())
    let maxEventBytes = capChoice == 0 ? 64 * 1024 : 64 + capChoice * 8
    let (whole, pieces) = takeChunkedStream(&input)

    var wholeParser = SSEParser(maxEventBytes: maxEventBytes, lastEventId: "evt_0")
    let expected = wholeParser.feed(whole)
    var piecesParser = SSEParser(maxEventBytes: maxEventBytes, lastEventId: "evt_0")
    var outputs: [SSEParser.Output] = []
    for piece in pieces { outputs += piecesParser.feed(piece) }

    fuzzCheck(outputs == expected, "chunking changed the outputs: \(outputs) vs \(expected)")
    fuzzCheck(piecesParser.lastEventId == wholeParser.lastEventId, "chunking changed the last event id")
    for case .event(let event) in outputs {
        fuzzCheck(event.data.unicodeScalars.count <= maxEventBytes, "an event over the cap was dispatched")
    }
    piecesParser.resetStream()
    _ = piecesParser.feed(whole)
    return 0
}
