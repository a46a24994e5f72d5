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

    /// Each URL is parsed once (libcurl is handed its parsed form, CURLOPT_CURLU),
    /// and requests going back and forth between URLs still go each to its own.
    @Test func aURLSentToBeforeIsNotParsedAgainAndEachRequestGoesToItsOwn() throws {
        let server = try ScriptedHTTPServer()
        let client = try HTTPClient()
        defer { client.stop() }
        let paths = ["/widget/one", "/widget/two", "/widget/one", "/widget/two", "/widget/one"]
        for (index, path) in paths.enumerated() {
            let result = send(client, HTTPClientRequest(method: "PATCH", url: server.baseURL + path, headers: [],
                                                        body: Array("\(index)".utf8)))
            #expect(echoed(result) == "{\"echo\":\(index)}")
        }
        let patches = server.log.filter { $0.hasPrefix("PATCH") }
        #expect(patches == paths.enumerated().map { "PATCH \($0.element) auth=None body=\($0.offset)" })
        #expect(client.urlParses == 2)
    }

    /// A URL libcurl refuses fails its request as before (libcurl is given the text)
    /// and is not kept; the next request goes out.
    @Test func aURLLibcurlRefusesFailsItsRequestAndTheNextGoesOut() throws {
        let server = try ScriptedHTTPServer()
        let client = try HTTPClient()
        defer { client.stop() }
        let refused = send(client, HTTPClientRequest(method: "PATCH", url: "http://exa mple.invalid/widget", headers: [], body: []))
        guard case .failure(let error) = refused else {
            Issue.record("a URL with a space was sent: \(String(describing: refused))")
            return
        }
        #expect(error.message == "URL using bad/illegal format or missing URL")
        let next = send(client, HTTPClientRequest(method: "PATCH", url: server.baseURL + "/a", headers: [], body: Array("1".utf8)))
        #expect(echoed(next) == "{\"echo\":1}")
    }
}

/// The parsed URLs one easy handle keeps: each parsed once, at most `capacity`.
@Suite("ParsedURLs: libcurl's parsed URLs, bounded")
struct ParsedURLsTests {
    @Test func eachURLIsParsedOnceAndNoMoreThanTheCapacityAreKept() {
        let urls = ParsedURLs(capacity: 2)
        let first = urls.parsed(for: "http://127.0.0.1:1/a")?.handle
        #expect(first != nil)
        #expect(urls.parsed(for: "http://127.0.0.1:1/b")?.handle != nil)
        #expect(urls.parsed(for: "http://127.0.0.1:1/a")?.handle == first)
        #expect(urls.parseCount == 2)
        #expect(urls.count == 2)
        // A third URL: the capacity is reached, so the kept ones are freed first.
        #expect(urls.parsed(for: "http://127.0.0.1:1/c")?.handle != nil)
        #expect(urls.count == 1)
        #expect(urls.parseCount == 3)
    }

    /// "é" composed (U+00E9) and decomposed (e + U+0301): equal Strings, other
    /// bytes on the wire, so two URLs (a String key gave the second the first's handle).
    @Test func urlsEqualOnlyUnderUnicodeAreTwoURLs() {
        let urls = ParsedURLs(capacity: 4)
        let composed = "http://127.0.0.1:1/caf\u{E9}"
        let decomposed = "http://127.0.0.1:1/cafe\u{301}"
        #expect(composed == decomposed)
        let first = urls.parsed(for: composed)?.handle
        let second = urls.parsed(for: decomposed)?.handle
        #expect(first != nil && second != nil)
        #expect(first != second)
        #expect(urls.parseCount == 2)
    }

    @Test func aURLLibcurlRefusesIsNotKept() {
        let urls = ParsedURLs(capacity: 4)
        #expect(urls.parsed(for: "http://exa mple.invalid/")?.handle == nil)
        #expect(urls.parsed(for: "")?.handle == nil)
        #expect(urls.count == 0)
    }
}
