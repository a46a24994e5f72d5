import Testing
@testable import MQTTShell

/// What the shell reads from libmosquitto's log lines (2.0.11's own words, measured
/// against a real mosquitto with TLS: see MQTTClientTests and MQTTTLSTests).
@Suite("libmosquitto log lines")
struct MosquittoLogLineTests {
    @Test(arguments: [
        ("Error: host name verification failed.", MQTTTLSFailure.hostNameMismatch),
        ("OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed", .untrustedChain),
        ("OpenSSL Error[0]: error:0A00010B:SSL routines::wrong version number", .other("error:0A00010B:SSL routines::wrong version number")),
    ])
    func aTLSFailureLineIsRead(line: String, failure: MQTTTLSFailure) {
        #expect(line.withCString { MosquittoLogLine.tlsFailure($0) } == failure)
    }

    @Test(arguments: ["Client bridge sending CONNECT", "Error: A TLS error occurred.", ""])
    func anotherLineIsNoTLSFailure(line: String) {
        #expect(line.withCString { MosquittoLogLine.tlsFailure($0) } == nil)
    }

    @Test func anOpenSSLTextIsBounded() {
        let line = "OpenSSL Error[0]: " + String(repeating: "x", count: 10_000)
        guard case .other(let text)? = line.withCString({ MosquittoLogLine.tlsFailure($0) }) else {
            Issue.record("not read")
            return
        }
        #expect(text.utf8.count == MQTTTLSFailure.maxTextBytes)
    }

    /// The host name failure comes first, then OpenSSL's generic "certificate verify
    /// failed": the handshake's reason stays the host name.
    @Test func theHostNameFailureIsNotHiddenByTheVerifyFailureAfterIt() {
        #expect(MQTTTLSFailure.hostNameMismatch.merged(with: .untrustedChain) == .hostNameMismatch)
        #expect(MQTTTLSFailure.other("x").merged(with: .untrustedChain) == .untrustedChain)
        #expect(MQTTTLSFailure.untrustedChain.merged(with: .other("x")) == .untrustedChain)
    }
}
