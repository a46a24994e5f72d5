@testable import CurlShell
import Foundation
import Testing
import TestSupport

/// A kept-alive connection the server closed while idle is only found closed when
/// the next request is written on it: that request is sent once more on a fresh
/// connection (libcurl did the same), but a fresh connection's failure is the answer.
@Suite("HTTPClient: a stale kept-alive connection is retried once on a fresh one")
struct HTTPClientStaleConnectionTests {
    func send(_ client: HTTPClient, _ url: String, body: String) -> HTTPClientResult? {
        let done = Mailbox<HTTPClientResult>()
        client.send(HTTPClientRequest(method: "PATCH", url: url, body: Array(body.utf8))) { done.put($0) }
        return done.take(timeoutSeconds: 10)
    }

    func echoed(_ result: HTTPClientResult?) -> String? {
        guard case .response(let response) = result, response.status == 200 else { return nil }
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test func aReusedConnectionClosedBeforeTheAnswerIsReplacedAndTheRequestSentAgain() throws {
        let server = try ScriptedHTTPServer()
        let client = try HTTPClient()
        defer { client.stop() }
        #expect(echoed(send(client, server.baseURL + "/drop-on-reuse", body: "1")) == "{\"echo\":1}")
        #expect(echoed(send(client, server.baseURL + "/drop-on-reuse", body: "2")) == "{\"echo\":2}")
        #expect(server.log.filter { $0 == "DROPPED" }.count == 1, "the second request reached the first connection")
        #expect(server.log.filter { $0.hasPrefix("PATCH") } == [
            "PATCH /drop-on-reuse auth=None body=1", "PATCH /drop-on-reuse auth=None body=2", "PATCH /drop-on-reuse auth=None body=2",
        ])
        #expect(server.connectionCount == 2)
    }

    @Test func aFreshConnectionClosedBeforeTheAnswerFailsItsRequestOnce() throws {
        let server = try ScriptedHTTPServer()
        let client = try HTTPClient()
        defer { client.stop() }
        guard case .failure(let error) = send(client, server.baseURL + "/drop", body: "1") else {
            Issue.record("a closed connection gave an answer")
            return
        }
        #expect(error.message == "Server returned nothing (no headers, no data)")
        #expect(error.operation == "PATCH 127.0.0.1:\(server.port)")
        #expect(server.log.filter { $0.hasPrefix("PATCH") }.count == 1, "not retried: the connection was fresh")
        // The next request makes a new connection and is answered.
        #expect(echoed(send(client, server.baseURL + "/echo", body: "3")) == "{\"echo\":3}")
    }
}
