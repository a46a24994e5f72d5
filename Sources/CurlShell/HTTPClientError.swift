import CCurl

/// Why a request produced no HTTP response. The message comes from libcurl and the
/// shell; it never contains request headers (so never the API token).
public struct HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broad class of failure, for the owner's retry decisions.
    public enum Kind: Sendable, Equatable {
        case timedOut
        case connectionFailed
        case tls
        case responseTooLarge
        case queueFull
        case stopped
        case transport
    }

    public let kind: Kind
    public let message: String

    public var description: String { message }

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// From a libcurl result code plus the handle's error buffer text.
    init(curlCode: CURLcode, detail: String) {
        let summary = curl_easy_strerror(curlCode).map { String(cString: $0) } ?? "curl error \(curlCode.rawValue)"
        self.kind = Self.kind(of: curlCode)
        self.message = detail.isEmpty || detail == summary ? summary : "\(summary): \(detail)"
    }

    private static func kind(of code: CURLcode) -> Kind {
        switch code {
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .connectionFailed
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR:
            .tls
        default: .transport
        }
    }
}
