@testable import CurlShell
import Foundation
import ShellSupport
import Testing
import TestSupport

/// Issue 38 item 6: no name lookup blocks the loop. libcurl's threaded resolver was
/// joined inside `curl_multi_socket_action` (a 25 s lookup stopped the loop ~20 s a
/// PATCH retry); now `NameResolver` looks names up on its own thread and libcurl is
/// handed CURLOPT_RESOLVE. A 25 s lookup (the resolver's fault delay) must leave the
/// loop free for every other request, and a stop must not wait for it.
@Suite("Name lookups never block the loop")
struct NameLookupOffLoopTests {
    func send(_ client: HTTPClient, _ url: String) -> Mailbox<HTTPClientResult> {
        let done = Mailbox<HTTPClientResult>()
        client.send(HTTPClientRequest(method: "PATCH", url: url, headers: [], body: Array("1".utf8))) { done.put($0) }
        return done
    }

    func status(_ result: HTTPClientResult?) -> Int? {
        guard case .response(let response) = result else { return nil }
        return response.status
    }

    @Test func aSlowLookupLeavesTheLoopToOtherRequestsAndAStopDoesNotWaitForIt() throws {
        let server = try ScriptedHTTPServer()
        let multi = try CurlMulti.onOwnThread()
        defer { multi.close() }
        var slowSettings = HTTPClientSettings()
        slowSettings.resolver = NameResolver(lookupDelayMs: 25_000)
        slowSettings.totalTimeoutMs = 60_000
        let named = HTTPClient(settings: slowSettings, on: multi)
        let literal = HTTPClient(on: multi)
        defer { literal.stop() }

        let pending = send(named, "http://localhost:\(server.port)/widget/a")
        // Requests over the same loop go on while the name is looked up: each answered at once.
        for index in 0..<5 {
            let started = Date()
            let answer = send(literal, server.baseURL + "/widget/\(index)").take(timeoutSeconds: 5)
            #expect(status(answer) == 200)
            #expect(Date().timeIntervalSince(started) < 1.0, "request \(index) waited for the lookup")
        }
        #expect(pending.take(timeoutSeconds: 0.1) == nil, "the lookup is still pending")

        let stopStarted = Date()
        let stopped = Mailbox<Bool>()
        _ = multi.onLoop { named.stop(); stopped.put(true) }
        #expect(stopped.take(timeoutSeconds: 2) == true)
        #expect(Date().timeIntervalSince(stopStarted) < 2.0, "the stop waited for the lookup")
        guard case .failure(let error) = pending.take(timeoutSeconds: 2) else {
            Issue.record("the pending request was not failed by the stop")
            return
        }
        #expect(error.description.contains("client stopped"))
    }

    @Test func aNameIsLookedUpOnceAndLibcurlConnectsToItsAddress() throws {
        let server = try ScriptedHTTPServer()
        var settings = HTTPClientSettings()
        let resolver = NameResolver()
        settings.resolver = resolver
        let client = try HTTPClient(settings: settings)
        defer { client.stop() }
        #expect(status(send(client, "http://localhost:\(server.port)/widget/a").take(timeoutSeconds: 10)) == 200)
        #expect(resolver.lookupCount == 1)
        #expect(resolver.cached("localhost")?.contains("127.0.0.1") == true)
        #expect(status(send(client, "http://127.0.0.1:\(server.port)/widget/b").take(timeoutSeconds: 10)) == 200)
        #expect(resolver.lookupCount == 1, "a literal address is not looked up")
    }

    @Test(arguments: [(nil, 0), ("400", 400), ("-5", 0), ("999999", 60_000), ("ten", 0)] as [(String?, Int)])
    func theFaultDelayIsClamped(text: String?, expectedMs: Int) {
        #expect(NameResolver.faultDelayMs(text) == expectedMs)
    }
}
