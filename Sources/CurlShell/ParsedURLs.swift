import BridgeCore
import CCurl
import Glibc

/// libcurl's parsed form (a `CURLU` handle) of each URL one easy handle was sent
/// to, kept so that a request to a URL seen before hands libcurl the parsed form
/// (CURLOPT_CURLU) instead of the text (CURLOPT_URL), which libcurl parses again on
/// every transfer (~5 k instructions a PATCH, callgrind). The daemon sends to one
/// URL per widget. Bounded: at most `capacity` URLs, then started over. Parsed with
/// the flags libcurl itself parses CURLOPT_URL with, so the same URLs are taken;
/// one libcurl refuses is not kept (`parsed(for:)` is nil), and the caller reports it
/// as libcurl names it (CURLE_URL_MALFORMAT). Keyed by the URL's UTF-8 bytes
/// (`UTF8Key`): two URLs Unicode calls equal but libcurl sends differently are two URLs.
final class ParsedURLs {
    /// Most URLs kept.
    let capacity: Int
    private var handles: [UTF8Key: ParsedURL] = [:]
    /// How many URLs were parsed (tests: a URL seen before is not parsed again).
    private(set) var parseCount = 0

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    deinit {
        removeAll()
    }

    /// How many URLs are kept now.
    var count: Int { handles.count }

    /// The parsed form of `url`, parsed now if not seen before; nil when libcurl
    /// refuses it or runs out of memory. The handle stays valid until the next call
    /// that parses (one that starts over frees the others) or `removeAll`: call it
    /// between transfers only.
    func parsed(for url: String) -> ParsedURL? {
        let key = UTF8Key(url)
        if let known = handles[key] { return known }
        if handles.count >= capacity { removeAll() }
        guard let parsed = curl_url() else { return nil }
        parseCount += 1
        let flags = UInt32(CURLU_GUESS_SCHEME) | UInt32(CURLU_NON_SUPPORT_SCHEME)
        guard curl_url_set(parsed, CURLUPART_URL, url, flags) == CURLUE_OK else {
            curl_url_cleanup(parsed)
            return nil
        }
        guard let entry = ParsedURL(handle: parsed, proxyScheme: ProxySettings.scheme(of: url)) else {
            curl_url_cleanup(parsed)
            return nil
        }
        handles[key] = entry
        return entry
    }

    /// Frees every parsed URL.
    func removeAll() {
        for parsed in handles.values { curl_url_cleanup(parsed.handle) }
        handles = [:]
    }
}

/// One URL as `ParsedURLs` keeps it: libcurl's parsed form, the scheme whose proxy
/// it takes, and the parts `HTTPRequestWriter` writes, read once from libcurl's parse.
struct ParsedURL {
    let handle: OpaquePointer
    let proxyScheme: ProxyScheme?
    /// The request target: the path (`/` when none) and `?query` when there is one.
    let target: [UInt8]
    /// The `Host` field: the host, and `:port` when the URL names a port other than its scheme's.
    let host: [UInt8]
    /// Scheme, host and port (the scheme's when none is named): requests of one origin share a connection.
    let origin: [UInt8]
    /// The host and the port connected to (the scheme's when none is named): what a name lookup is for.
    let endpoint: CurlEndpoint

    /// The parts of `handle`'s URL; nil when it has no host (libcurl would refuse it).
    init?(handle: OpaquePointer, proxyScheme: ProxyScheme?) {
        guard let scheme = Self.part(handle, CURLUPART_SCHEME), let host = Self.part(handle, CURLUPART_HOST), !host.isEmpty,
              let port = Self.part(handle, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)) else { return nil }
        self.handle = handle
        self.proxyScheme = proxyScheme
        var target = Self.part(handle, CURLUPART_PATH) ?? []
        if target.isEmpty { target = [UInt8(ascii: "/")] }
        if let query = Self.part(handle, CURLUPART_QUERY) { target += [UInt8(ascii: "?")] + query }
        self.target = target
        let otherPort = Self.part(handle, CURLUPART_PORT, flags: UInt32(CURLU_NO_DEFAULT_PORT))
        self.host = otherPort.map { host + [UInt8(ascii: ":")] + $0 } ?? host
        origin = scheme.map(ResponseHeadLine.lowercased) + Array("://".utf8) + host + [UInt8(ascii: ":")] + port
        endpoint = CurlEndpoint(host: String(decoding: host, as: UTF8.self), port: String(decoding: port, as: UTF8.self))
    }

    /// One part of a parsed URL as bytes; nil when the URL has none.
    private static func part(_ handle: OpaquePointer, _ what: CURLUPart, flags: UInt32 = 0) -> [UInt8]? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, what, &value, flags) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return Array(UnsafeRawBufferPointer(start: value, count: strlen(value)))
    }
}
