import CurlShell
import Foundation
import ShellSupport
import Testing
import TestSupport

/// A source that asks to be serviced at once, and records that it was.
private final class DueSource: LoopSource, @unchecked Sendable {
    let serviced = NSCondition()
    var serviceCount = 0

    func loopWants(nowMs: Int64) -> LoopWants { LoopWants(deadlineMs: serviceCount == 0 ? nowMs : nil) }

    func loopService(ready: [LoopReadiness], nowMs: Int64) {
        serviced.lock()
        serviceCount += 1
        serviced.broadcast()
        serviced.unlock()
    }

    func waitForService(timeoutSeconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        serviced.lock()
        defer { serviced.unlock() }
        while serviceCount == 0 { if !serviced.wait(until: deadline) { return serviceCount > 0 } }
        return true
    }
}

@Suite("CurlMulti: libcurl's multi handle on the event loop")
struct CurlMultiTests {
    /// Work handed to the loop from another thread runs while the loop asks its sources
    /// what they want; when it adds a source (the event stream starting), that turn must
    /// not wait, or the new source is first asked after the next wake: the stream never
    /// connected in 1 of 3 runs of its test.
    @Test func aSourceAddedByHandedOverWorkIsServicedWithoutAnotherWake() throws {
        let multi = try CurlMulti.onOwnThread()
        defer { multi.close() }
        let first = DueSource()
        #expect(multi.onLoop { multi.loop.add(first) })
        #expect(first.waitForService(timeoutSeconds: 10))
        // The loop is idle now (or about to be): nothing else will wake it.
        let second = DueSource()
        #expect(multi.onLoop { multi.loop.add(second) })
        #expect(second.waitForService(timeoutSeconds: 10))
    }

    /// libcurl's timer in whole ms: never called back before libcurl's own expiry (it would
    /// find nothing due and set no new timer), "at once" stays at once.
    @Test(arguments: [(0, 100, 100), (1, 100, 103), (250, 100, 352), (-1, 100, 100)])
    func timerDeadlines(timeoutMs: Int, nowMs: Int64, expected: Int64) {
        #expect(CurlMulti.deadlineMs(afterMs: timeoutMs, nowMs: nowMs) == expected)
    }

    /// A transfer added on the loop's thread is started at once (libcurl asks for its
    /// timer at 0): on a kept-alive connection the request reaches the server before
    /// the loop turns again (it waited for the next poll before: one turn per PATCH).
    @Test func aRequestAddedOnTheLoopsThreadGoesOutBeforeTheLoopTurnsAgain() throws {
        let server = try ScriptedHTTPServer()
        let loop = try EventLoop()
        let multi = try CurlMulti(on: loop)
        let client = HTTPClient(on: multi)
        defer {
            client.stop()
            multi.close()
        }
        let results = Mailbox<HTTPClientResult>()
        loop.turn(timeoutMs: 0)  // this thread turns the loop
        func patch(_ path: String) {
            client.send(HTTPClientRequest(method: "PATCH", url: server.baseURL + path, body: Array("1".utf8))) { results.put($0) }
        }
        func turnUntilAnswered(_ count: Int) -> Bool {
            waitUntil { loop.turn(timeoutMs: 5); return results.all.count >= count }
        }
        patch("/first")  // connects: the request waits for the socket
        #expect(turnUntilAnswered(1))
        patch("/second")
        #expect(waitUntil { server.log.contains { $0.hasPrefix("PATCH /second") } })
        #expect(turnUntilAnswered(2))
        #expect(server.connectionCount == 1)
    }
}
