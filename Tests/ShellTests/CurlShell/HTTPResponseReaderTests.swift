@testable import CurlShell
import Testing

/// The response reader of `HTTPClient`'s own connection: every framing a server
/// uses, any cut of the bytes, every bound, and hostile bytes as errors.
@Suite("HTTPResponseReader: one bounded response, read as it arrives")
struct HTTPResponseReaderTests {
    struct Outcome: Equatable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var closes: Bool
        var taken: Int
    }

    static let kept = HTTPResponseReader.keptNames(["Date", "Retry-After"])

    /// Reads `text` in pieces cut at `cuts`; `ends`: the connection then closes.
    func read(_ text: String, cuts: [Int] = [], ends: Bool = false, maxBodyBytes: Int = 64 * 1024,
              isHead: Bool = false) -> Result<Outcome, HTTPResponseReaderError> {
        let bytes = Array(text.utf8)
        var reader = HTTPResponseReader(maxBodyBytes: maxBodyBytes, keptNames: Self.kept, isHeadRequest: isHead)
        var taken = 0
        let bounds = [0] + cuts.filter { $0 > 0 && $0 < bytes.count } + [bytes.count]
        do throws(HTTPResponseReaderError) {
            for (start, end) in zip(bounds, bounds.dropFirst()) where !reader.isComplete {
                let piece = Array(bytes[start..<end])
                taken += try piece.withUnsafeBytes { raw in Result { () throws(HTTPResponseReaderError) in try reader.read(raw) } }.get()
            }
            if ends { try reader.readEnd() }
        } catch {
            return .failure(error)
        }
        guard reader.isComplete else { return .failure(.cut) }
        return .success(Outcome(status: reader.status, headers: reader.headers, body: reader.body,
                                closes: reader.closesConnection, taken: taken))
    }

    /// The same outcome whole and cut at every single byte (one cut, and every byte apart).
    func expectSameAtEveryCut(_ text: String, ends: Bool = false, _ expected: Outcome) {
        #expect(read(text, ends: ends) == .success(expected))
        for cut in 1..<text.utf8.count {
            #expect(read(text, cuts: [cut], ends: ends) == .success(expected), "cut at \(cut)")
        }
        #expect(read(text, cuts: Array(1..<text.utf8.count), ends: ends) == .success(expected), "byte by byte")
    }

    @Test func aContentLengthBodyAtEveryCut() {
        let text = "HTTP/1.1 429 Too Many\r\nretry-after: 1\r\nServer: x\r\nRetry-After:  3 \t\r\nDATE: Sun\r\nContent-Length: 5\r\n\r\nhello"
        expectSameAtEveryCut(text, Outcome(status: 429, headers: ["retry-after": "3", "date": "Sun"], body: Array("hello".utf8),
                                           closes: false, taken: text.utf8.count))
    }

    @Test func aChunkedBodyWithExtensionsAndTrailersAtEveryCut() {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n5;ext=1\r\nhello\r\nA\r\n, chunked!\r\n0\r\nRetry-After: 9\r\n\r\n"
        expectSameAtEveryCut(text, Outcome(status: 200, headers: ["retry-after": "9"], body: Array("hello, chunked!".utf8),
                                           closes: false, taken: text.utf8.count))
    }

    @Test func informationalHeadsAreSkippedWithTheirFields() {
        let text = "HTTP/1.1 100 Continue\r\nDate: early\r\n\r\nHTTP/1.1 103 Early Hints\r\nRetry-After: 99\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"
        expectSameAtEveryCut(text, Outcome(status: 200, headers: [:], body: Array("{}".utf8), closes: false, taken: text.utf8.count))
    }

    @Test func aBodyWithoutLengthEndsWithTheConnection() {
        let text = "HTTP/1.1 200 OK\nDate: d\n\nuntil the end"
        expectSameAtEveryCut(text, ends: true, Outcome(status: 200, headers: ["date": "d"], body: Array("until the end".utf8),
                                                       closes: true, taken: text.utf8.count))
        #expect(read(text) == .failure(.cut), "not complete before the close")
    }

    @Test func connectionCloseHTTP10AndBodilessStatuses() {
        #expect(read("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 0\r\n\r\n").map(\.closes) == .success(true))
        #expect(read("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").map(\.closes) == .success(true))
        #expect(read("HTTP/1.1 204 No Content\r\n\r\n").map(\.body) == .success([]))
        #expect(read("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n", isHead: true).map(\.body) == .success([]))
    }

    /// The tokens of `Connection` and `Transfer-Encoding`, read in place: empty ones,
    /// spaces and tabs around them, a name that only starts like the token.
    @Test func theTokensOfConnectionAndTransferEncoding() {
        let closes = [("keep-alive,,close", true), ("closed, x", false), ("x ,\t Close\t", true), (",", false),
                      ("keep-alive", false), ("close,", true), (" , close , ", true)]
        for (value, expected) in closes {
            #expect(read("HTTP/1.1 200 OK\r\nConnection: \(value)\r\nContent-Length: 0\r\n\r\n").map(\.closes) == .success(expected),
                    "Connection: \(value)")
        }
        let chunked = "3\r\nabc\r\n0\r\n\r\n"
        let body = Array(chunked.utf8)
        let codings: [(String, [UInt8])] = [("gzip ,\tchunked", Array("abc".utf8)), ("chunked, gzip", body), ("chunked,", body),
                                             ("chunked", Array("abc".utf8)), ("xchunked", body)]
        for (value, expected) in codings {
            let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: \(value)\r\n\r\n" + chunked
            #expect(read(text, ends: true).map(\.body) == .success(expected), "Transfer-Encoding: \(value)")
        }
    }

    @Test func bytesAfterTheAnswerAreNotTaken() {
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"
        #expect(read(answer + "HTTP/1.1 200 OK\r\n").map(\.taken) == .success(answer.utf8.count))
    }

    @Test func theBodyIsCutAtItsBoundAndTheRestReadAndDropped() {
        let text = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789"
        #expect(read(text, maxBodyBytes: 4) == .success(Outcome(status: 200, headers: [:], body: Array("0123".utf8), closes: false,
                                                                 taken: text.utf8.count)))
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n012345\r\n0\r\n\r\n"
        #expect(read(chunked, cuts: [50, 52], maxBodyBytes: 3).map(\.body) == .success(Array("012".utf8)))
    }

    @Test func sizesBeyondTheirBoundsAreRefused() {
        let longField = "X-Long: " + String(repeating: "a", count: HTTPResponseReader.maxHeadBytes) + "\r\n"
        #expect(read("HTTP/1.1 200 OK\r\n" + longField + "\r\n") == .failure(.tooLarge))
        let manyInterim = String(repeating: "HTTP/1.1 100 Continue\r\nX: " + String(repeating: "b", count: 1_000) + "\r\n\r\n", count: 70)
        #expect(read(manyInterim, cuts: Array(stride(from: 100, to: 80_000, by: 997))) == .failure(.tooLarge))
        let chunkLine = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 2_000) + "\r\n"
        #expect(read(chunkLine) == .failure(.tooLarge))
        #expect(read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n") == .failure(.tooLarge))
        #expect(read("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n") == .failure(.malformed))
    }

    @Test(arguments: [
        "HTTP/2 200\r\n\r\n", "ICY 200 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/1.1 099 Low\r\n\r\n", "HTTP/1.1 101 Switching\r\n\r\n",
        "HTTP/1.1 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n",
    ])
    func hostileBytesAreErrors(text: String) {
        #expect(read(text, ends: true) == .failure(.malformed))
    }

    @Test func aCloseBeforeOrInTheAnswer() {
        #expect(read("", ends: true) == .failure(.nothing))
        #expect(read("HTTP/1.1 200 OK\r\nContent-Len", ends: true) == .failure(.cut))
        #expect(read("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nab", ends: true) == .failure(.cut))
    }
}

/// The request bytes `HTTPClient` writes.
@Suite("HTTPRequestWriter: the request on the wire")
struct HTTPRequestWriterTests {
    @Test func aPatchAndAGet() throws {
        let lines = try #require(HTTPRequestWriter.headerLines([("Authorization", "Token t"), ("Content-Type", "application/json")]))
        var out: [UInt8] = []
        HTTPRequestWriter.write(method: "PATCH", target: Array("/widget/w?x=1".utf8), host: Array("h:8080".utf8), headerLines: lines,
                                body: Array("{}".utf8), into: &out)
        #expect(String(decoding: out, as: UTF8.self)
            == "PATCH /widget/w?x=1 HTTP/1.1\r\nHost: h:8080\r\nAuthorization: Token t\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        HTTPRequestWriter.write(method: "GET", target: Array("/".utf8), host: Array("h".utf8), headerLines: [], body: [], into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "GET / HTTP/1.1\r\nHost: h\r\n\r\n")
    }

    /// Issue 23: Content-Length's digits are written in place.
    @Test(arguments: [0, 1, 9, 10, 99, 100, 1_000, 12_345, 65_536])
    func theContentLengthOfABody(count: Int) {
        var out: [UInt8] = []
        HTTPRequestWriter.write(method: "PATCH", target: Array("/".utf8), host: Array("h".utf8), headerLines: [],
                                body: Array(repeating: 0x61, count: count), into: &out)
        let head = String(decoding: out.prefix(out.count - count), as: UTF8.self)
        #expect(head == "PATCH / HTTP/1.1\r\nHost: h\r\nContent-Length: \(count)\r\n\r\n")
    }

    @Test func aHeaderWithALineBreakIsRefused() {
        #expect(HTTPRequestWriter.headerLines([("X", "a\r\nInjected: 1")]) == nil)
        #expect(HTTPRequestWriter.headerLines([("X\n", "a")]) == nil)
        #expect(HTTPRequestWriter.headerLines([("", "a")]) == nil)
    }
}
