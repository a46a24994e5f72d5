#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// A flag set from another thread.
final class SharedFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// The small HTTP server on its own, over real loopback sockets.
@Suite struct HTTPServerTests {
    /// Echoes method, path and body length; `/stream` streams three chunks.
    static func echoHandler(streamEnded: SharedFlag? = nil) -> HTTPHandler {
        { request in
            if request.path == "/stream" {
                return .stream(status: 200, headers: [HTTPHeader("Content-Type", "text/plain")]) { stream in
                    for index in 1...3 { stream.write("part \(index)\n") }
                    if request.queryValue("hold") != nil {
                        while stream.isOpen { usleep(5_000) }
                        streamEnded?.set()
                    }
                }
            }
            return .response(.text(200, "\(request.method) \(request.path) \(request.body.count) \(request.bodyText)"))
        }
    }

    static func start(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
                      handler: @escaping HTTPHandler = echoHandler()) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration(port: 0, maxHeaderBytes: 1024, maxBodyBytes: 100)
        configure(&configuration)
        return try HTTPServer.start(configuration: configuration, handler: handler)
    }

    @Test func bindsAFreePortAndAnswersCurl() throws {
        let server = try Self.start()
        defer { server.stop() }
        #expect(server.port > 0)
        let result = try CurlProcess.request(["http://127.0.0.1:\(server.port)/hello"])
        #expect(result.status == 200)
        #expect(result.body == "GET /hello 0 ")
    }

    @Test func bindsIPv6Loopback() throws {
        let server = try Self.start { $0.host = "::1" }
        defer { server.stop() }
        let connection = try RawConnection(port: server.port, host: "::1")
        connection.send("GET /six HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(connection.readResponse()?.bodyText == "GET /six 0 ")
    }

    @Test func keepsTheConnectionAliveAcrossRequests() throws {
        let server = try Self.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = connection.readResponse()
        connection.send("POST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        let second = connection.readResponse()
        #expect(first?.bodyText == "GET /one 0 ")
        #expect(first?.header("Connection") == "keep-alive")
        #expect(second?.bodyText == "POST /two 3 abc")
    }

    @Test func readsChunkedRequestBodies() throws {
        let server = try Self.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\n\r\n")
        #expect(connection.readResponse()?.bodyText == "POST /c 9 Wikipedia")
    }

    @Test func answersExpectContinueFromCurl() throws {
        let server = try Self.start { $0.maxBodyBytes = 10_000 }
        defer { server.stop() }
        let body = String(repeating: "x", count: 5_000)
        let result = try CurlProcess.request(["-X", "POST", "-H", "Expect: 100-continue", "--data-binary", body,
                                              "http://127.0.0.1:\(server.port)/big"])
        #expect(result.status == 200)
        #expect(result.body.hasPrefix("POST /big 5000 "))
    }

    @Test(arguments: [
        ("too long header", "GET / HTTP/1.1\r\nX-Long: \(String(repeating: "a", count: 2_000))\r\n\r\n", 431),
        ("body over Content-Length limit", "POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n", 413),
        ("chunked body over limit", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n65\r\n\(String(repeating: "b", count: 101))\r\n0\r\n\r\n", 413),
        ("huge chunk size", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n7FFFFFFFFFFFFFFF\r\n", 413),
        ("huge Content-Length", "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n", 400),
        ("garbage request line", "HELLO\r\n\r\n", 400),
        ("unknown version", "GET / HTTP/2.0\r\n\r\n", 400),
        ("lowercase method", "get / HTTP/1.1\r\n\r\n", 400),
        ("target without slash", "GET x HTTP/1.1\r\n\r\n", 400),
        ("header without colon", "GET / HTTP/1.1\r\nBroken header\r\n\r\n", 400),
        ("space before colon", "GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),
        ("non-numeric Content-Length", "POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", 400),
        ("negative Content-Length", "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
        ("both framings", "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("bad chunk size", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
    ])
    func refusesMalformedAndOversizedRequests(name: String, request: String, status: Int) throws {
        let server = try Self.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send(request)
        let response = connection.readResponse()
        #expect(response?.status == status, "\(name)")
        #expect(response?.header("Connection") == "close", "\(name)")
        #expect(connection.readToEnd(), "\(name): the connection closes")
    }

    @Test func aStalledClientDoesNotBlockAnother() throws {
        let server = try Self.start()
        defer { server.stop() }
        let stalled = try RawConnection(port: server.port)
        stalled.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\nonly part")
        let halfHead = try RawConnection(port: server.port)
        halfHead.send("GET /half HTTP/1.1\r\nHo")
        #expect(waitUntil { server.openConnectionCount == 2 })
        let result = try CurlProcess.request(["http://127.0.0.1:\(server.port)/quick"])
        #expect(result.status == 200)
        #expect(result.body == "GET /quick 0 ")
    }

    @Test func refusesConnectionsOverTheCap() throws {
        let server = try Self.start { $0.maxConnections = 2 }
        defer { server.stop() }
        let first = try RawConnection(port: server.port)
        let second = try RawConnection(port: server.port)
        #expect(waitUntil { server.openConnectionCount == 2 })
        let third = try RawConnection(port: server.port)
        #expect(third.readResponse()?.status == 503)
        _ = (first, second)
    }

    @Test func idleConnectionsTimeOut() throws {
        let server = try Self.start { $0.readTimeoutMs = 100 }
        defer { server.stop() }
        let idle = try RawConnection(port: server.port)
        #expect(idle.readToEnd(timeoutMs: 5_000))
        #expect(waitUntil { server.openConnectionCount == 0 })
    }

    @Test func streamsChunksAndNoticesTheClientLeaving() throws {
        let ended = SharedFlag()
        let server = try Self.start(handler: Self.echoHandler(streamEnded: ended))
        defer { server.stop() }
        var connection: RawConnection? = try RawConnection(port: server.port)
        connection?.send("GET /stream?hold=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        let gotParts = connection?.read(until: { $0.receivedText.contains("part 3") }) ?? false
        #expect(gotParts)
        #expect(connection?.receivedText.contains("Transfer-Encoding: chunked") == true)
        #expect(connection?.receivedText.contains("7\r\npart 1\n\r\n") == true)
        connection = nil
        #expect(waitUntil { ended.isSet })
    }

    @Test func endsAStreamWithTheLastChunk() throws {
        let server = try Self.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(connection.readToEnd())
        #expect(connection.receivedText.hasSuffix("0\r\n\r\n"))
    }

    @Test func stopClosesOpenConnectionsAndStreams() throws {
        let server = try Self.start()
        let idle = try RawConnection(port: server.port)
        let streaming = try RawConnection(port: server.port)
        streaming.send("GET /stream?hold=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(streaming.read(until: { $0.receivedText.contains("part 3") }))
        server.stop()
        #expect(idle.readToEnd())
        #expect(streaming.readToEnd())
        #expect(server.openConnectionCount == 0)
        #expect(throws: (any Error).self) { try RawConnection(port: server.port) }
    }

    @Test func routesByMethodAndPath() throws {
        var router = HTTPRouter<HTTPHandler>()
        router.add("GET", "/status") { _ in .text(200, "ok") }
        router.add("GET", "/files/*") { request in .text(200, request.path) }
        let server = try Self.start(handler: router.handler)
        defer { server.stop() }
        #expect(try TestHTTP.request(port: server.port, "GET", "/status").bodyText == "ok")
        #expect(try TestHTTP.request(port: server.port, "GET", "/files/a/b").bodyText == "/files/a/b")
        #expect(try TestHTTP.request(port: server.port, "POST", "/status").status == 405)
        #expect(try TestHTTP.request(port: server.port, "GET", "/nope").status == 404)
    }

    @Test(arguments: [
        ("x", nil, nil, "data: x\n\n"),
        ("{\"a\":1}", "evt_1", "widget.action.v1", "id: evt_1\nevent: widget.action.v1\ndata: {\"a\":1}\n\n"),
        ("one\ntwo\r\nthree\rfour", nil, nil, "data: one\ndata: two\ndata: three\ndata: four\n\n"),
        ("", nil, "ping", "event: ping\ndata: \n\n"),
    ] as [(String, String?, String?, String)])
    func framesServerSentEvents(data: String, id: String?, event: String?, expected: String) {
        #expect(ServerSentEvents.frame(id: id, event: event, data: data) == expected)
    }

    @Test func framesComments() {
        #expect(ServerSentEvents.comment("keepalive") == ": keepalive\n\n")
    }
}

/// Issue 12, item 5: the server is not easy to deny.
@Suite struct HTTPServerDenialTests {
    /// Leading CRLFs used to be skipped for free, for ever.
    @Test func leadingBlankLinesCountAgainstTheHeadBudget() throws {
        let server = try HTTPServerTests.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send(String(repeating: "\r\n", count: 600))
        #expect(connection.readResponse()?.status == 431)
    }

    /// A head trickled one byte at a time used to reset the per-read timeout for ever.
    @Test func theWholeHeadHasADeadline() throws {
        let server = try HTTPServerTests.start { $0.readTimeoutMs = 2_000; $0.headTimeoutMs = 600 }
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        #expect(waitUntil { server.openConnectionCount == 1 })
        let closedInTime = Deadline(milliseconds: 2_500)
        let head = Array("GET / HTTP/1.1\r\nHost: " + String(repeating: "x", count: 200))
        var sent = 0
        while server.openConnectionCount > 0, sent < head.count {
            connection.send(String(head[sent]))
            sent += 1
            _ = connection.readSome(timeoutMs: 100)
        }
        #expect(waitUntil(timeoutSeconds: 1) { server.openConnectionCount == 0 })
        #expect(!closedInTime.hasPassed, "closed at the head deadline, not after the whole trickle (\(sent) bytes sent)")
    }

    @Test func whenFullTheLongestWaitingConnectionMakesRoom() throws {
        let server = try HTTPServerTests.start { $0.maxConnections = 2; $0.evictsOldestIdleWhenFull = true }
        defer { server.stop() }
        let oldest = try RawConnection(port: server.port)
        #expect(waitUntil { server.openConnectionCount == 1 })
        let second = try RawConnection(port: server.port)
        #expect(waitUntil { server.openConnectionCount == 2 })
        let newcomer = try RawConnection(port: server.port)
        newcomer.send("GET /quick HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(newcomer.readResponse()?.status == 200)
        #expect(oldest.readToEnd(timeoutMs: 2_000), "the oldest idle connection was closed")
        _ = second
    }

    /// A stream's client that never reads is dropped once it is more than the bound
    /// behind (the stream's writes then fail), long before the write timeout, and
    /// the server holds no more than the bound for it: not buffered without limit.
    @Test func aStreamsClientThatNeverReadsIsDroppedAtTheBound() throws {
        let written = Mutex(0)
        let ended = SharedFlag()
        let server = try HTTPServerTests.start({ $0.maxStreamBufferedBytes = 64 * 1024; $0.writeTimeoutMs = 60_000 }) { _ in
            .stream(status: 200, headers: [HTTPHeader("Content-Type", "text/plain")]) { stream in
                let chunk = String(repeating: "x", count: 16 * 1024)
                while stream.write(chunk) {
                    guard written.withLock({ total in total += chunk.utf8.count; return total }) < 512 * 1024 * 1024 else { break }
                }
                ended.set()
            }
        }
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /flood HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(waitUntil(timeoutSeconds: 20) { ended.isSet }, "the stream was still written to: \(written.withLock { $0 }) bytes")
        // What the kernel's socket buffers took, plus the server's two bounds at most.
        #expect(written.withLock { $0 } < 64 * 1024 * 1024)
        #expect(waitUntil(timeoutSeconds: 5) { server.openConnectionCount == 0 })
    }

    /// A request trickled in one byte at a time is read whole: the parser resumes
    /// where it stopped.
    @Test func aRequestTrickledByteByByteIsAnswered() throws {
        let server = try HTTPServerTests.start()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        for character in "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello" {
            connection.send(String(character))
            _ = connection.readSome(timeoutMs: 1)
        }
        #expect(connection.readResponse()?.bodyText == "POST /slow 5 hello")
    }

    /// An answer that must wait (`.deferred`) runs off the loop: another connection
    /// is answered meanwhile, then the held answer goes out on its own connection.
    @Test func aDeferredAnswerDoesNotHoldUpAnotherConnection() throws {
        let release = SharedFlag()
        let server = try HTTPServerTests.start(handler: { request in
            guard request.path == "/held" else { return .response(.text(200, "quick")) }
            return .deferred {
                _ = waitUntil(timeoutSeconds: 10) { release.isSet }
                return .response(.text(200, "held"))
            }
        })
        defer { server.stop() }
        let held = try RawConnection(port: server.port)
        held.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
        let other = try RawConnection(port: server.port)
        other.send("GET /quick HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(other.readResponse(timeoutMs: 5_000)?.bodyText == "quick")
        #expect(!release.isSet)
        release.set()
        #expect(held.readResponse()?.bodyText == "held")
    }
}
