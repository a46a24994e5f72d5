@testable import CurlShell

/// The HTTP client's response reader on any bytes, arriving cut at fuzzer-chosen
/// places, the connection closing after them: never a crash or a hang, the pieces
/// give exactly what the whole gives (outcome, status, kept headers, body, bytes
/// taken), the body within its bound, a status only of 200-599 once complete.
///
/// Input: one byte choosing the body cap (0 to 255 × 16 bytes), then the chunk
/// header of `takeChunkedStream` (cut count, two bytes per cut), then the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(start, count)
    let maxBodyBytes = Int(input.byte()) * 16
    let (whole, pieces) = takeChunkedStream(&input)
    let expected = readResponse([whole], maxBodyBytes: maxBodyBytes)
    let cut = readResponse(pieces, maxBodyBytes: maxBodyBytes)
    fuzzCheck(cut == expected, "cutting changed the outcome: \(cut) vs \(expected)")
    if case .read(let status, _, let body, let taken) = expected {
        fuzzCheck(status >= 200 && status <= 599, "a complete answer of status \(status)")
        fuzzCheck(body.count <= maxBodyBytes, "a body over its bound")
        fuzzCheck(taken <= whole.count, "took more bytes than came")
    }
    return 0
}

/// What one response read from `pieces` gave.
enum ResponseOutcome: Equatable {
    case read(status: Int, headers: [String: String], body: [UInt8], taken: Int)
    case failed(HTTPResponseReaderError)
}

func readResponse(_ pieces: [[UInt8]], maxBodyBytes: Int) -> ResponseOutcome {
    var reader = HTTPResponseReader(maxBodyBytes: maxBodyBytes, keptNames: HTTPResponseReader.keptNames(["Date", "Retry-After"]))
    var taken = 0
    do throws(HTTPResponseReaderError) {
        for piece in pieces where !reader.isComplete {
            taken += try piece.withUnsafeBytes { raw in Result { () throws(HTTPResponseReaderError) in try reader.read(raw) } }.get()
        }
        try reader.readEnd()
    } catch {
        return .failed(error)
    }
    return .read(status: reader.status, headers: reader.headers, body: reader.body, taken: taken)
}
