import CurlShell
import Foundation
import Testing
import TestSupport

/// Sends one request and waits for its completion.
func sendAndWait(_ client: HTTPClient, _ request: HTTPRequest, timeoutSeconds: Double = 20) -> Result<HTTPResponse, HTTPClientError>? {
    let results = Recorder<Result<HTTPResponse, HTTPClientError>>()
    client.send(request) { results.append($0) }
    _ = waitUntil(timeoutSeconds: timeoutSeconds) { !results.values.isEmpty }
    return results.values.first
}

@Suite("HTTPClient over loopback")
struct HTTPClientTests {
    static let token = "tok_SECRET_123"

    func patch(_ server: ScriptedHTTPServer, _ path: String, body: String = #"{"content":{}}"#) -> HTTPRequest {
        HTTPRequest(
            method: "PATCH", url: server.baseURL + path,
            headers: [HTTPHeader(name: "Authorization", value: "Token \(Self.token)"), HTTPHeader(name: "Content-Type", value: "application/json")],
            body: Array(body.utf8)
        )
    }

    @Test func patchReturnsStatusHeadersAndBody() throws {
        let server = try ScriptedHTTPServer()
        let client = try HTTPClient()
        defer { client.stop() }

        let response = try #require(try sendAndWait(client, patch(server, "/echo", body: #"{"a":1}"#))?.get())
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"echo":{"a":1}}"#)
        #expect(response.headers.value(of: "x-test") == "yes")
        #expect(response.date?.hasSuffix("GMT") == true)
        #expect(server.log.contains("PATCH /echo auth=Token \(Self.token) body={\"a\":1}"))
    }

    @Test func retryAfterIsRead() throws {
        let server = try ScriptedHTTPServer()
        let client = try HTTPClient()
        defer { client.stop() }

        let response = try #require(try sendAndWait(client, patch(server, "/ratelimited"))?.get())
        #expect(response.statusCode == 429)
        #expect(response.retryAfterSeconds == 7)
    }

    @Test func severalRequestsShareOneConnection() throws {
        let server = try ScriptedHTTPServer()
        let client = try HTTPClient()
        defer { client.stop() }

        for index in 0..<3 {
            let response = try #require(try sendAndWait(client, patch(server, "/echo", body: "\(index)"))?.get())
            #expect(response.statusCode == 200)
        }
        let get = HTTPRequest(method: "GET", url: server.baseURL + "/nothing")
        #expect(try sendAndWait(client, get)?.get().statusCode == 404)
        #expect(server.connectionCount == 1)
    }

    @Test func totalTimeoutFailsWithoutTheToken() throws {
        let server = try ScriptedHTTPServer()
        let client = try HTTPClient(settings: HTTPClientSettings(totalTimeoutMs: 300))
        defer { client.stop() }

        let result = try #require(sendAndWait(client, patch(server, "/slow")))
        guard case .failure(let error) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect(error.kind == .timedOut)
        #expect(!error.message.contains(Self.token))
    }

    @Test func refusedConnectionIsATransportError() throws {
        let client = try HTTPClient()
        defer { client.stop() }
        let request = HTTPRequest(method: "PATCH", url: "http://127.0.0.1:\(LoopbackPort.free())/x", headers: [HTTPHeader(name: "Authorization", value: "Token \(Self.token)")])

        let result = try #require(sendAndWait(client, request))
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error.kind == .connectionFailed)
        #expect(!error.message.contains(Self.token))
    }

    @Test func oversizedResponseBodyIsRefused() throws {
        let server = try ScriptedHTTPServer()
        let client = try HTTPClient(settings: HTTPClientSettings(maxResponseBodyBytes: 1_000))
        defer { client.stop() }

        let result = try #require(sendAndWait(client, HTTPRequest(method: "GET", url: server.baseURL + "/big")))
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error.kind == .responseTooLarge)
    }

    @Test func queueIsBoundedAndStopFailsWhatIsQueued() throws {
        let server = try ScriptedHTTPServer()
        let client = try HTTPClient(settings: HTTPClientSettings(totalTimeoutMs: 10_000, maxQueuedRequests: 1))
        let results = Recorder<HTTPClientError.Kind?>()
        for _ in 0..<3 {
            client.send(patch(server, "/slow")) { result in
                if case .failure(let error) = result { results.append(error.kind) } else { results.append(nil) }
            }
        }
        #expect(waitUntil { results.values.contains(.queueFull) })
        client.stop(abandonInFlight: true)
        #expect(results.values.count == 3)
        #expect(results.values.contains(.stopped))
        client.send(patch(server, "/echo")) { result in
            if case .failure(let error) = result { results.append(error.kind) }
        }
        #expect(results.values.last == .stopped)
    }
}

@Suite("HTTPClient over TLS")
struct HTTPClientTLSTests {
    @Test func verifiesAgainstTheConfiguredCAAndKeepsTheConnection() throws {
        let server = try ScriptedHTTPServer(useTLS: true)
        let caFile = try #require(server.certificates?.caFile)
        let client = try HTTPClient(settings: HTTPClientSettings(caFile: caFile))
        defer { client.stop() }

        for _ in 0..<2 {
            let request = HTTPRequest(method: "PATCH", url: server.baseURL + "/echo", body: Array("1".utf8))
            #expect(try sendAndWait(client, request)?.get().statusCode == 200)
        }
        #expect(server.connectionCount == 1)
    }

    @Test func refusesAnUnknownCertificate() throws {
        let server = try ScriptedHTTPServer(useTLS: true)
        let client = try HTTPClient()
        defer { client.stop() }

        let result = try #require(sendAndWait(client, HTTPRequest(method: "GET", url: server.baseURL + "/echo")))
        guard case .failure(let error) = result else {
            Issue.record("expected a TLS failure, got \(result)")
            return
        }
        #expect(error.kind == .tls)
    }
}
