#if canImport(Glibc)
import Glibc
#endif
@testable import HTTPServer

/// The HTTP/1.1 request reader of the status server and the simulator, on any
/// bytes arriving in fuzzer-chosen pieces over a real socket: never a crash or
/// a hang; every request it returns stays within the configured bounds.
///
/// The pieces go through an AF_UNIX SOCK_SEQPACKET pair, so each `recv` sees
/// exactly one piece; the writing side is shut down after the last one.
/// Input: the chunk header of `takeChunkedStream`, then the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(start, count)
    let (_, pieces) = takeChunkedStream(&input)
    var pair: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair) == 0 else {
        fatalError("fuzz: socketpair failed (errno \(errno))")
    }
    defer { close(pair[1]) }
    for piece in pieces where !piece.isEmpty {
        let sent = piece.withUnsafeBytes { send(pair[1], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        fuzzCheck(sent == piece.count, "fuzz: the socket pair took \(sent) of \(piece.count) bytes")
    }
    shutdown(pair[1], Int32(SHUT_WR))

    let limits = HTTPServerConfiguration(maxHeaderBytes: 2048, maxBodyBytes: 4096, readTimeoutMs: 2000)
    let socket = ConnectionSocket(fileDescriptor: pair[0], readTimeoutMs: 2000, writeTimeoutMs: 2000)
    defer { socket.close() }
    let reader = HTTPRequestReader(socket: socket, limits: limits)
    for _ in 0..<64 {
        guard case .request(let request) = reader.next() else { break }
        fuzzCheck(request.body.count <= limits.maxBodyBytes, "a body over the bound was returned")
        _ = request.pathSegments
        _ = request.queryValue("refresh")
        _ = request.wantsKeepAlive
        _ = request.bodyText
    }
    return 0
}
