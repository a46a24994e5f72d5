@testable import HTTPServer

/// The HTTP/1.1 request parser of the status server and the simulator (issue 43):
/// the same bytes given whole and in fuzzer-chosen pieces (as the loop hands them
/// over, one read each), under fuzzed bounds, give the same answers (requests,
/// `100 Continue`, the refusal and its status, or the close); never a crash or a
/// hang; every request it returns stays within the bounds; the bytes it keeps
/// never exceed what it was given; it never needs more once the input ended.
/// Input: one byte for the head bound (16 + 8 × N bytes), one for the body bound
/// (16 × N bytes), the chunk header of `takeChunkedStream`, then the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(start, count)
    let maxHeaderBytes = 16 + 8 * Int(input.byte())
    let maxBodyBytes = 16 * Int(input.byte())
    let (whole, pieces) = takeChunkedStream(&input)
    let limits = HTTPServerConfiguration(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes, readTimeoutMs: 2000)
    let answersWhole = answers(to: [whole], limits: limits)
    let answersInPieces = answers(to: pieces, limits: limits)
    fuzzCheck(answersWhole == answersInPieces,
              "whole and in pieces differ: whole \(answersWhole), in pieces \(answersInPieces) (cut \(pieces.map(\.count)))")
    return 0
}

/// What the parser answers to a stream arriving as `pieces`, `needsMore` left out,
/// checking the bounds on the way.
private func answers(to pieces: [[UInt8]], limits: HTTPServerConfiguration) -> [String] {
    var parser = HTTPRequestParser(limits: limits)
    var seen: [String] = []
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
                let headers = request.headers.map { "\($0.name): \($0.value)" }
                seen.append("request \(request.method) \(request.target) \(request.version) \(headers) \(request.body)")
            case .continueExpected:
                seen.append("continue")
            case .needsMore:
                fuzzCheck(!inputEnded, "needs more after the input ended")
                return true
            case .closed:
                seen.append("closed")
                return false
            case .refused(let status, let reason):
                seen.append("refused \(status) \(reason)")
                return false
            }
        }
        seen.append("64 requests")
        return false
    }
    for piece in pieces where !piece.isEmpty {
        parser.append(piece[...])
        given += piece.count
        fuzzCheck(parser.bufferedByteCount <= given, "the parser holds more bytes than it was given")
        guard drain(inputEnded: false) else { return seen }
    }
    _ = drain(inputEnded: true)
    return seen
}
