@testable import CurlShell
import Foundation
import Testing
import TestSupport

/// The kept headers (Date, Retry-After) are the answer's (`HTTPResponseReader` on the
/// client's own connection; libcurl's collector before): the answer's head must be
/// the one read, not an informational one, in any case, the last of a name.
@Suite("HTTPClient: the kept headers of the answer's head")
struct KeptResponseHeadersTests {
    func send(_ client: HTTPClient, to url: String) -> HTTPClientResponse? {
        let done = Mailbox<HTTPClientResult>()
        client.send(HTTPClientRequest(method: "PATCH", url: url, body: Array("{}".utf8))) { done.put($0) }
        guard case .response(let response) = done.take(timeoutSeconds: 10) else { return nil }
        return response
    }

    @Test func theAnswersHeadIsKeptNotAnInformationalOneNorOtherHeaders() throws {
        let server = try HostileAiviServer(script: [
            "patch_interim": [[100, [["Date", "early"], ["Retry-After", "99"]]]],
            "patch_status": 429,
            "patch_headers": [["retry-after", "1"], ["Server", "sim"], ["Retry-After", " 3\t"],
                              ["DATE", "Sun, 29 Nov 2026 21:00:00 GMT"]],
        ])
        let client = try HTTPClient()
        defer { client.stop() }
        let response = try #require(send(client, to: "http://127.0.0.1:\(server.port)/widget/one"))
        #expect(response.status == 429)
        #expect(response.headers == ["retry-after": "3", "date": "Sun, 29 Nov 2026 21:00:00 GMT"])
        #expect(response.header("Retry-After") == "3")
    }

    /// A response without them has none, and the next one's are its own (not the last's).
    @Test func eachResponseHasOnlyItsOwnHeaders() throws {
        let server = try HostileAiviServer(script: ["patch_status": 429, "patch_headers": [["Retry-After", "7"]]])
        let client = try HTTPClient()
        defer { client.stop() }
        let url = "http://127.0.0.1:\(server.port)/widget/one"
        #expect(send(client, to: url)?.headers == ["retry-after": "7"])
        try server.setScript(["patch_status": 200])
        #expect(send(client, to: url)?.headers == [:])
    }
}
