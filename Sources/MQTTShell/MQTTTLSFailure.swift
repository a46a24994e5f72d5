/// Why the TLS handshake with the broker failed. libmosquitto's return code says only
/// "A TLS error occurred."; its log says more (MosquittoLogLine): its own host name
/// check ("Error: host name verification failed."), then OpenSSL's errors
/// ("OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed").
/// Each case's reason names the fix.
enum MQTTTLSFailure: Sendable, Equatable {
    /// The certificate is trusted but does not name the host connected to.
    case hostNameMismatch
    /// OpenSSL's "certificate verify failed" without a host name failure: the chain
    /// does not lead to a trusted CA (or a certificate in it has expired or is not yet valid).
    case untrustedChain
    /// Another OpenSSL error (its text, bounded).
    case other(String)

    /// Longest OpenSSL text kept.
    static let maxTextBytes = 200

    /// The more telling of two failures of one handshake: the host name failure is
    /// followed by OpenSSL's generic "certificate verify failed", which must not hide it.
    func merged(with later: MQTTTLSFailure) -> MQTTTLSFailure {
        later.precedence < precedence ? later : self
    }

    private var precedence: Int {
        switch self {
        case .hostNameMismatch: 0
        case .untrustedChain: 1
        case .other: 2
        }
    }

    /// What the bridge logs, with the fix (no secret: host, port and CA file only).
    func reason(host: String, port: Int, tls: MQTTSettings.TLS?) -> String {
        switch self {
        case .hostNameMismatch:
            return "TLS: the broker's certificate does not name '\(host)' (host name verification failed): set mqtt.host to a name "
                + "the certificate carries (its subjectAltName: `openssl s_client -connect \(host):\(port)` shows it), or reissue "
                + "the broker's certificate with subjectAltName DNS:\(host) (IP:\(host) for an address)"
        case .untrustedChain:
            let trusted = tls?.caFile.map { "the CA in mqtt.tls.ca_file \($0)" } ?? "the system's CAs (\(MQTTSettings.TLS.systemCADirectory))"
            return "TLS: the broker's certificate chain is not trusted by \(trusted) (certificate verify failed): set mqtt.tls.ca_file to "
                + "the certificate of the CA that signed the broker's (a self-signed broker: its own certificate); an expired or "
                + "not yet valid certificate fails the same way, so check the board's clock and the certificate's dates"
        case .other(let text):
            return "TLS: the handshake with the broker failed (OpenSSL: \(text)): check that port \(port) is the broker's TLS "
                + "listener (8883 by convention; 1883 is plain MQTT)"
        }
    }
}
