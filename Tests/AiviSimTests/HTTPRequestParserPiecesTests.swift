@testable import HTTPServer
import Testing

/// Issue 43, defect 3: the request parser's answer must not depend on how the
/// kernel cut its input. Each case is an input the `http-request` fuzz
/// target found answered one way whole and another way in pieces (minimised by
/// hand), fed whole and in the pieces that showed the difference.
@Suite struct HTTPRequestParserPiecesTests {
    /// What a parser gives for a stream, `needsMore` left out: requests (method,
    /// target, body), `continue`, then how it ended.
    static func outcomes(of pieces: [String], maxHeaderBytes: Int, maxBodyBytes: Int = 4096) -> [String] {
        let limits = HTTPServerConfiguration(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
        var parser = HTTPRequestParser(limits: limits)
        var seen: [String] = []
        func drain(inputEnded: Bool) -> Bool {
            while true {
                switch parser.next(inputEnded: inputEnded) {
                case .request(let request): seen.append("\(request.method) \(request.target) \(request.bodyText)")
                case .continueExpected: seen.append("continue")
                case .needsMore: return true
                case .closed: seen.append("closed"); return false
                case .refused(let status, let reason): seen.append("\(status) \(reason)"); return false
                }
            }
        }
        for piece in pieces {
            parser.append(Array(piece.utf8)[...])
            guard drain(inputEnded: false) else { return seen }
        }
        _ = drain(inputEnded: true)
        return seen
    }

    /// The same bytes whole and cut as `pieces`.
    static func expectSameWholeAndInPieces(_ pieces: [String], maxHeaderBytes: Int, expected: [String],
                                           sourceLocation: SourceLocation = #_sourceLocation) {
        let whole = outcomes(of: [pieces.joined()], maxHeaderBytes: maxHeaderBytes)
        let cut = outcomes(of: pieces, maxHeaderBytes: maxHeaderBytes)
        #expect(whole == expected, sourceLocation: sourceLocation)
        #expect(cut == expected, sourceLocation: sourceLocation)
    }

    /// A head of exactly the bound (15 bytes before the blank line) was refused 431
    /// when a read ended inside its `\r\n\r\n`: the bound counted the partial end.
    @Test func aHeadAtTheBoundIsReadWhenItsEndArrivesInPieces() {
        Self.expectSameWholeAndInPieces(["GET / HTTP/1.1\r\n", "\r\n"], maxHeaderBytes: 15,
                                        expected: ["GET / ", "closed"])
        Self.expectSameWholeAndInPieces(["GET / HTTP/1.1\r\n\r", "\n"], maxHeaderBytes: 15,
                                        expected: ["GET / ", "closed"])
        Self.expectSameWholeAndInPieces(["GET / HTTP/1.1\n", "\n"], maxHeaderBytes: 14,
                                        expected: ["GET / ", "closed"])
        Self.expectSameWholeAndInPieces(["GET / HTTP/1.1X\r\n", "\r\n"], maxHeaderBytes: 15,
                                        expected: ["431 request head too large"])
    }

    /// A chunk-size line was bounded (1 KiB) only while its newline had not arrived:
    /// whole, a 1,100-byte size line was read.
    @Test func aLongChunkSizeLineEndsTheSameWholeAndInPieces() {
        let head = "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        let sizeLine = String(repeating: "0", count: 1100) + "1"
        Self.expectSameWholeAndInPieces([head + sizeLine, "\r\nx\r\n0\r\n\r\n"], maxHeaderBytes: 1024,
                                        expected: ["closed"])
        // At the bound (1,024 bytes and its CRLF) the line is read, whole and in pieces.
        let atBound = String(repeating: "0", count: 1023) + "1"
        Self.expectSameWholeAndInPieces([head + atBound + "\r", "\nx\r\n0\r\n\r\n"], maxHeaderBytes: 1024,
                                        expected: ["POST /p x", "closed"])
    }

    /// Bytes after a chunk's data where its CRLF belongs: 400 whole, but a quiet
    /// close when more than two arrived before a newline.
    @Test func bytesAfterChunkDataAreRefusedWholeAndInPieces() {
        let head = "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        Self.expectSameWholeAndInPieces([head + "1\r\nxABCDE", "\r\n0\r\n\r\n"], maxHeaderBytes: 1024,
                                        expected: ["400 chunk not terminated"])
        Self.expectSameWholeAndInPieces([head + "1\r\nx\r", "\r\n0\r\n\r\n"], maxHeaderBytes: 1024,
                                        expected: ["400 chunk not terminated"])
        Self.expectSameWholeAndInPieces([head + "1\r\nx\r", "\n0\r\n\r\n"], maxHeaderBytes: 1024,
                                        expected: ["POST /p x", "closed"])
    }

    /// A trailer line longer than the trailers' bound: 431 whole, a quiet close when
    /// the read ended before its newline.
    @Test func anOverLongTrailerLineIsRefusedWholeAndInPieces() {
        let head = "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        let trailer = "X-T: " + String(repeating: "t", count: 100)
        Self.expectSameWholeAndInPieces([head + "1\r\nx\r\n0\r\n" + trailer, "\r\n\r\n"], maxHeaderBytes: 64,
                                        expected: ["431 trailers too large"])
        // Two trailer lines that together pass the bound, the second cut before its newline.
        let half = "X-T: " + String(repeating: "t", count: 35)
        Self.expectSameWholeAndInPieces([head + "1\r\nx\r\n0\r\n" + half + "\r\n" + half, "\r\n\r\n"],
                                        maxHeaderBytes: 64, expected: ["431 trailers too large"])
    }
}
