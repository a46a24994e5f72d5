import BridgeCore
import CCurl

/// libcurl's parsed form (a `CURLU` handle) of each URL one easy handle was sent
/// to, kept so that a request to a URL seen before hands libcurl the parsed form
/// (CURLOPT_CURLU) instead of the text (CURLOPT_URL), which libcurl parses again on
/// every transfer (~5 k instructions a PATCH, callgrind). The daemon sends to one
/// URL per widget. Bounded: at most `capacity` URLs, then started over. Parsed with
/// the flags libcurl itself parses CURLOPT_URL with, so the same URLs are taken;
/// one libcurl refuses is not kept (`handle(for:)` is nil), and the caller sets the
/// text, so libcurl reports it as before. Keyed by the URL's UTF-8 bytes
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
    func handle(for url: String) -> OpaquePointer? {
        parsed(for: url)?.handle
    }

    /// `handle(for:)` with the URL's proxy scheme (`ProxySettings.scheme`), read when it was parsed.
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
        let entry = ParsedURL(handle: parsed, proxyScheme: ProxySettings.scheme(of: url))
        handles[key] = entry
        return entry
    }

    /// Frees every parsed URL.
    func removeAll() {
        for parsed in handles.values { curl_url_cleanup(parsed.handle) }
        handles = [:]
    }
}

/// One URL as `ParsedURLs` keeps it: libcurl's parsed form and the scheme whose proxy it takes.
struct ParsedURL {
    let handle: OpaquePointer
    let proxyScheme: ProxyScheme?
}
