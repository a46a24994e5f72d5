@testable import CurlShell
import Foundation
import Testing
import TestSupport

/// The client sets its easy handle up once per request shape (method and header
/// lines) and then only gives each request its URL and body (in the handle's own
/// buffer, no copy by libcurl): each request must still go out exactly as asked.
@Suite("HTTPClient: one handle set-up per request shape")
struct HTTPClientReuseTests {
    func send(_ client: HTTPClient, _ request: HTTPClientRequest) -> HTTPClientResult? {
        let done = Mailbox<HTTPClientResult>()
        client.send(request) { done.put($0) }
        return done.take(timeoutSeconds: 10)
    }

    func echoed(_ result: HTTPClientResult?) -> String? {
        guard case .response(let response) = result, response.status == 200 else { return nil }
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test func requestsOfOneShapeShareTheSetUpAndEachSendsItsOwnURLAndBody() throws {
        let server = try ScriptedHTTPServer()
        let client = try HTTPClient()
        defer { client.stop() }
        let one = [(name: "Authorization", value: "Token one")]
        let two = [(name: "Authorization", value: "Token two")]
        let requests: [(path: String, body: String, headers: [(name: String, value: String)])] = [
            ("/a", "a longer body first", one), ("/b", "2", one), ("/b", "", one), ("/c", "then", two), ("/a", "back", one),
        ]
        for request in requests {
            let result = send(client, HTTPClientRequest(method: "PATCH", url: server.baseURL + request.path,
                                                        headers: request.headers, body: Array(request.body.utf8)))
            #expect(echoed(result) == "{\"echo\":\(request.body)}")
        }
        let patches = server.log.filter { $0.hasPrefix("PATCH") }
        #expect(patches == requests.map { "PATCH \($0.path) auth=\($0.headers[0].value) body=\($0.body)" })
        // one, two, one again: three shapes in a row; the other two requests reused theirs.
        #expect(client.shapeSetUps == 3)
    }
}
