@testable import HTTPServer

/// The HTTP/1.1 request parser of the status server and the simulator, on any
/// bytes arriving in fuzzer-chosen pieces (as the loop hands them over, one read
/// each): never a crash or a hang; every request it returns stays within the
/// configured bounds; the bytes it keeps never exceed what it was given.
/// Input: the chunk header of `takeChunkedStream`, then the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(start, count)
    let (_, pieces) = takeChunkedStream(&input)
    let limits = HTTPServerConfiguration(maxHeaderBytes: 2048, maxBodyBytes: 4096, readTimeoutMs: 2000)
    var parser = HTTPRequestParser(limits: limits)
    var requests = 0
    var given = 0
    func drain(inputEnded: Bool) -> Bool {
        while requests < 64 {
            switch parser.next(inputEnded: inputEnded) {
            case .request(let request):
                requests += 1
                fuzzCheck(request.body.count <= limits.maxBodyBytes, "a body over the bound was returned")
                _ = request.pathSegments
                _ = request.queryValue("refresh")
                _ = request.wantsKeepAlive
                _ = request.bodyText
            case .continueExpected:
                continue
            case .needsMore:
                fuzzCheck(!inputEnded, "needs more after the input ended")
                return true
            case .closed, .refused:
                return false
            }
        }
        return false
    }
    for piece in pieces where !piece.isEmpty {
        parser.append(piece[...])
        given += piece.count
        fuzzCheck(parser.bufferedByteCount <= given, "the parser holds more bytes than it was given")
        guard drain(inputEnded: false) else { return 0 }
    }
    _ = drain(inputEnded: true)
    return 0
}
