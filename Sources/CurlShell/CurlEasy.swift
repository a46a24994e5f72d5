import CCurl

/// One libcurl easy handle. Reused across transfers so that the connection and the TLS
/// session stay alive (`reset()` keeps both). Used by one thread at a time.
final class CurlEasy {
    private let handle: UnsafeMutableRawPointer
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var headerList: UnsafeMutablePointer<curl_slist>?

    init() throws(HTTPClientError) {
        try CurlLibrary.ensureInitialised()
        guard let handle = curl_easy_init() else {
            throw HTTPClientError(kind: .transport, message: "curl_easy_init failed")
        }
        self.handle = handle
    }

    deinit {
        freeHeaders()
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Clears every option (connections, TLS sessions and DNS cache are kept) and sets
    /// the ones every transfer of the shell needs.
    func reset(connectTimeoutMs: Int, caFile: String?) throws(HTTPClientError) {
        curl_easy_reset(handle)
        freeHeaders()
        errorBuffer[0] = 0
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMs)
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        try set(CURLOPT_TCP_KEEPALIVE, 1)
        try set(CURLOPT_TCP_NODELAY, 1)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        if let caFile { try set(CURLOPT_CAINFO, caFile) }
    }

    /// Request headers for the next transfer (the list lives until the next reset).
    func setHeaders(_ headers: [HTTPHeader]) throws(HTTPClientError) {
        freeHeaders()
        for header in headers {
            headerList = curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        try set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(headerList))
    }

    func set(_ option: CURLoption, _ value: Int) throws(HTTPClientError) {
        try check(sb_curl_setopt_long(handle, option, value), option)
    }

    func set(_ option: CURLoption, _ value: String) throws(HTTPClientError) {
        try check(sb_curl_setopt_string(handle, option, value), option)
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(HTTPClientError) {
        try check(sb_curl_setopt_pointer(handle, option, pointer), option)
    }

    /// Sets a request body; libcurl copies it.
    func setBody(_ body: [UInt8]) throws(HTTPClientError) {
        try check(sb_curl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)), CURLOPT_POSTFIELDSIZE_LARGE)
        let code = body.withUnsafeBytes { bytes in
            sb_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)))
        }
        try check(code, CURLOPT_COPYPOSTFIELDS)
    }

    func setWriteFunction(_ option: CURLoption, _ callback: curl_write_callback) throws(HTTPClientError) {
        try check(sb_curl_setopt_write_function(handle, option, callback), option)
    }

    func setProgressFunction(_ callback: curl_xferinfo_callback) throws(HTTPClientError) {
        try check(sb_curl_setopt_xferinfo_function(handle, callback), CURLOPT_XFERINFOFUNCTION)
    }

    /// Runs the transfer on the calling thread; returns libcurl's code.
    func perform() -> CURLcode {
        curl_easy_perform(handle)
    }

    /// The error for a failed `perform()`, with libcurl's detail text (no headers).
    func error(for code: CURLcode) -> HTTPClientError {
        HTTPClientError(curlCode: code, detail: String(cString: errorBuffer))
    }

    var responseCode: Int {
        var code = 0
        _ = sb_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPClientError) {
        if code != CURLE_OK {
            throw HTTPClientError(curlCode: code, detail: "setting option \(option.rawValue)")
        }
    }

    private func freeHeaders() {
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
    }
}
