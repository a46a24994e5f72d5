@testable import CurlShell
import Foundation
import Testing
import TestSupport

/// The proxy environment is read once and handed to libcurl as options: the choice
/// must be libcurl's own (url.c `detect_proxy`), and a request must go where it
/// went when libcurl read the environment itself.
@Suite("ProxySettings: the proxy environment read once, as libcurl reads it")
struct ProxySettingsTests {
    func settings(_ environment: [String: String]) -> ProxySettings {
        ProxySettings { environment[$0] }
    }

    @Test(arguments: [
        ([:], "", "", ""),
        (["http_proxy": "h"], "h", "", ""),
        (["HTTP_PROXY": "H"], "", "", ""), // never the upper-case HTTP_PROXY
        (["https_proxy": "s", "HTTPS_PROXY": "S"], "", "s", ""),
        (["HTTPS_PROXY": "S"], "", "S", ""),
        (["all_proxy": "a", "ALL_PROXY": "A"], "a", "a", ""),
        (["ALL_PROXY": "A", "http_proxy": "h"], "h", "A", ""),
        (["https_proxy": "", "all_proxy": "a"], "a", "a", ""), // empty is unset (curl_getenv)
        (["no_proxy": "n", "NO_PROXY": "N"], "", "", "n"),
        (["NO_PROXY": "N"], "", "", "N"),
    ] as [([String: String], String, String, String)])
    func choosesAsLibcurlDoes(environment: [String: String], http: String, https: String, noProxy: String) {
        let proxy = settings(environment)
        #expect(proxy.httpProxy == http)
        #expect(proxy.httpsProxy == https)
        #expect(proxy.noProxy == noProxy)
    }

    @Test func theSchemeIsReadBeforeTheSlashesInAnyCase() {
        #expect(ProxySettings.scheme(of: "http://a/b") == .http)
        #expect(ProxySettings.scheme(of: "HTTPS://a/b") == .https)
        #expect(ProxySettings.scheme(of: "ftp://a/b") == nil)
        #expect(ProxySettings.scheme(of: "127.0.0.1:80/b") == nil)
        #expect(ProxySettings.scheme(of: "https:/a") == nil)
        #expect(ProxySettings.scheme(of: "httpss://a") == nil)
    }

    func send(_ client: HTTPClient, to url: String) -> HTTPClientResult? {
        let done = Mailbox<HTTPClientResult>()
        client.send(HTTPClientRequest(method: "PATCH", url: url, body: Array("hi".utf8))) { done.put($0) }
        return done.take(timeoutSeconds: 10)
    }

    func status(_ result: HTTPClientResult?) -> Int? {
        guard case .response(let response) = result else { return nil }
        return response.status
    }

    /// The test server, as the proxy of `http://` URLs, is asked for a tunnel to a
    /// host where nothing listens (the client writes its request itself, so it goes
    /// through a CONNECT tunnel: CURLOPT_HTTPPROXYTUNNEL) and gets the request in it.
    @Test func aRequestGoesThroughTheProxyOfTheSettings() throws {
        let proxy = try ScriptedHTTPServer()
        let closed = try LoopbackPort.free()
        var httpSettings = HTTPClientSettings()
        httpSettings.proxy = settings(["http_proxy": proxy.baseURL, "https_proxy": "http://127.0.0.1:\(closed)"])
        let client = try HTTPClient(settings: httpSettings)
        defer { client.stop() }
        #expect(status(send(client, to: "http://127.0.0.1:\(closed)/echo")) == 200)
        #expect(proxy.log.filter { $0.hasPrefix("PATCH") || $0.hasPrefix("CONNECT") }
            == ["CONNECT 127.0.0.1:\(closed)", "PATCH /echo auth=None body=hi"])
    }

    /// A host in `no_proxy` is reached directly, whatever the proxy.
    @Test func aHostInNoProxyIsReachedDirectly() throws {
        let server = try ScriptedHTTPServer()
        let closed = try LoopbackPort.free()
        var httpSettings = HTTPClientSettings()
        httpSettings.proxy = settings(["all_proxy": "http://127.0.0.1:\(closed)", "no_proxy": "127.0.0.1"])
        let client = try HTTPClient(settings: httpSettings)
        defer { client.stop() }
        #expect(status(send(client, to: server.baseURL + "/echo")) == 200)
        #expect(server.log.filter { $0.hasPrefix("PATCH") } == ["PATCH /echo auth=None body=hi"])
    }
}
