import CCurl

/// `curl_global_init` exactly once per process (before any thread uses libcurl).
enum CurlLibrary {
    private static let initialisationCode: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Throws if libcurl's global initialisation failed.
    static func ensureInitialised() throws(HTTPClientError) {
        let code = initialisationCode
        if code != CURLE_OK {
            throw HTTPClientError(curlCode: code, detail: "curl_global_init")
        }
    }
}
