import CCurl

/// Runs one HTTP request at a time on a reused `CurlEasy` (worker thread only).
final class HTTPTransferrer: @unchecked Sendable {
    private let easy: CurlEasy
    private let settings: HTTPClientSettings

    init(easy: CurlEasy, settings: HTTPClientSettings) {
        self.easy = easy
        self.settings = settings
    }

    func perform(_ request: HTTPRequest, shouldAbort: @escaping () -> Bool) -> Result<HTTPResponse, HTTPClientError> {
        let collector = ResponseCollector(maxBodyBytes: settings.maxResponseBodyBytes)
        let context = CurlTransferContext()
        context.onHeaderLine = collector.takeHeaderLine
        context.onBody = collector.takeBody
        context.shouldAbort = shouldAbort
        do {
            try configure(request, context: context)
        } catch {
            return .failure(error)
        }
        let code = withExtendedLifetime(context) { easy.perform() }
        if collector.isBodyTooLarge {
            return .failure(HTTPClientError(kind: .responseTooLarge, message: "response body over \(settings.maxResponseBodyBytes) bytes"))
        }
        guard code == CURLE_OK else { return .failure(easy.error(for: code)) }
        return .success(collector.response)
    }

    private func configure(_ request: HTTPRequest, context: CurlTransferContext) throws(HTTPClientError) {
        try easy.reset(connectTimeoutMs: settings.connectTimeoutMs, caFile: settings.caFile)
        try easy.set(CURLOPT_TIMEOUT_MS, settings.totalTimeoutMs)
        try easy.set(CURLOPT_URL, request.url)
        // No "Expect: 100-continue" round trip before the body.
        try easy.setHeaders(request.headers + [HTTPHeader(name: "Expect", value: "")])
        let method = request.method.uppercased()
        if method == "GET" {
            try easy.set(CURLOPT_HTTPGET, 1)
        } else if method == "HEAD" {
            try easy.set(CURLOPT_NOBODY, 1)
        } else {
            try easy.setBody(request.body)
            try easy.set(CURLOPT_CUSTOMREQUEST, method)
        }
        try context.install(on: easy)
    }
}
