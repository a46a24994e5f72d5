import CCurl
import ShellSupport

/// One libcurl easy handle: options, headers; run by a `CurlMulti`. Not thread-safe:
/// the multi's loop thread uses it. Reusing it keeps the connection and the TLS session.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// The CURLOPT_RESOLVE lines set last (kept until replaced: libcurl reads them at the transfer's start).
    private var resolveList: UnsafeMutablePointer<curl_slist>?
    /// The parsed URLs `setURL` hands libcurl (freed after `deinit` cleaned the handle up).
    let parsedURLs: ParsedURLs
    /// The scheme whose proxy options `setProxy` set last (nil: none set since `reset`).
    private var proxyScheme: ProxyScheme?

    init(maxParsedURLs: Int = 64) throws(CurlError) {
        CurlLibrary.initializeOnce()
        guard let handle = curl_easy_init() else { throw CurlError("curl_easy_init", CURLE_FAILED_INIT) }
        self.handle = handle
        parsedURLs = ParsedURLs(capacity: maxParsedURLs)
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        curl_slist_free_all(resolveList)
    }

    /// Clears every option before a request of another shape (a GET after a PATCH
    /// would otherwise keep the custom method); keeps connections, TLS sessions, DNS.
    func reset() {
        curl_easy_reset(handle)
        proxyScheme = nil
    }

    func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check("setopt", sb_curl_setopt_long(handle, option, value))
    }

    func set(_ option: CURLoption, _ value: String) throws(CurlError) {
        try check("setopt", sb_curl_setopt_string(handle, option, value))
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(CurlError) {
        try check("setopt", sb_curl_setopt_pointer(handle, option, pointer))
    }

    /// Sets an already parsed URL (`ParsedURLs`) and its scheme's proxy options. Between transfers only.
    func setURL(_ parsed: ParsedURL, proxy: ProxySettings) throws(CurlError) {
        try set(CURLOPT_CURLU, pointer: UnsafeMutableRawPointer(parsed.handle))
        try setProxy(proxy, scheme: parsed.proxyScheme)
    }

    /// Sets the proxy options of `url`'s scheme from `proxy` (once while the scheme
    /// stays), so libcurl does not read the environment on each transfer; for a URL
    /// of another scheme, clears them (libcurl reads the environment, as before).
    /// Between transfers only.
    func setProxy(_ proxy: ProxySettings, forURL url: String) throws(CurlError) {
        try setProxy(proxy, scheme: ProxySettings.scheme(of: url))
    }

    private func setProxy(_ proxy: ProxySettings, scheme: ProxyScheme?) throws(CurlError) {
        guard scheme != proxyScheme || scheme == nil else { return }
        proxyScheme = nil
        if let scheme {
            try set(CURLOPT_PROXY, proxy.proxy(for: scheme))
            try set(CURLOPT_NOPROXY, proxy.noProxy)
        } else {
            try set(CURLOPT_PROXY, pointer: nil)
            try set(CURLOPT_NOPROXY, pointer: nil)
        }
        proxyScheme = scheme
    }

    /// Replaces the request headers ("Name: value" lines).
    func setHeaders(_ lines: [String]) throws(CurlError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines { list = curl_slist_append(list, line) }
        try check("setopt", sb_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list))
        curl_slist_free_all(headerList)
        headerList = list
    }

    /// Hands libcurl the addresses of a name (CURLOPT_RESOLVE "host:port:addr,..."),
    /// looked up off the loop by `NameResolver`: libcurl connects to them without a
    /// lookup of its own, and still verifies TLS and sends SNI against the name.
    func setResolve(_ lines: [String]) throws(CurlError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines { list = curl_slist_append(list, line) }
        try check("setopt", sb_curl_setopt_slist(handle, CURLOPT_RESOLVE, list))
        curl_slist_free_all(resolveList)
        resolveList = list
    }

    /// Makes the response's body and header lines land in `receiver`'s callbacks; the
    /// caller keeps `receiver` alive for as long as the transfer runs.
    func setReceiver(_ receiver: AnyObject, body: sb_curl_data_callback, header: sb_curl_data_callback) throws(CurlError) {
        let context = Unmanaged.passUnretained(receiver).toOpaque()
        try set(CURLOPT_WRITEDATA, pointer: context)
        try set(CURLOPT_HEADERDATA, pointer: context)
        try check("setopt", sb_curl_setopt_write_function(handle, body))
        try check("setopt", sb_curl_setopt_header_function(handle, header))
    }

    /// The socket of the connection a CONNECT_ONLY transfer made (CURLINFO_ACTIVESOCKET); nil when none.
    var activeSocket: Int32? {
        var socket: curl_socket_t = -1
        guard sb_curl_getinfo_socket(handle, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK, socket >= 0 else { return nil }
        return socket
    }

    /// Sends on a CONNECT_ONLY connection (curl_easy_send: through its TLS and tunnel):
    /// how many bytes were taken, 0 when the socket takes none now (CURLE_AGAIN).
    func send(_ bytes: UnsafeRawBufferPointer) throws(CurlError) -> Int {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        var sent = 0
        let code = curl_easy_send(handle, start, bytes.count, &sent)
        if code == CURLE_AGAIN { return 0 }
        try check("send", code)
        return sent
    }

    /// Receives on a CONNECT_ONLY connection (curl_easy_recv): how many bytes came,
    /// 0 when the peer closed, nil when none wait now (CURLE_AGAIN; with TLS, bytes
    /// libcurl decrypted already come before the socket says so: read until nil).
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(CurlError) -> Int? {
        guard let start = buffer.baseAddress, !buffer.isEmpty else { return nil }
        var received = 0
        let code = curl_easy_recv(handle, start, buffer.count, &received)
        if code == CURLE_AGAIN { return nil }
        try check("recv", code)
        return received
    }

    private func check(_ operation: String, _ code: CURLcode) throws(CurlError) {
        guard code == CURLE_OK else { throw CurlError(operation, code) }
    }
}

/// curl_global_init, once per process, before any thread uses libcurl.
enum CurlLibrary {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    static func initializeOnce() { _ = initialized }
}
