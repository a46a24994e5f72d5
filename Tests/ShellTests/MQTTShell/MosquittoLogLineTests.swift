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

    /// libmosquitto 2.0.11's line for each incoming PUBLISH (handle_publish.c) gives its
    /// QoS; any other line (its own PUBLISH going out, a PUBACK) gives none.
    @Test(arguments: [
        ("Client bridge received PUBLISH (d0, q2, r0, m1, 'dev/a/state', ... (60000 bytes))", Int32?(2)),
        ("Client bridge received PUBLISH (d1, q1, r1, m17, 'dev/a/state', ... (3 bytes))", 1),
        ("Client b (kitchen) received PUBLISH (d0, q0, r0, m0, 'x (y)', ... (2 bytes))", 0),
        ("Client bridge sending PUBLISH (d0, q1, r0, m3, 'cmd/lamp', ... (6 bytes))", nil),
        ("Client bridge received PUBACK (Mid: 3, RC:0)", nil),
        ("Client bridge received PUBLISH (d0, x2, r0, m1, 't', ... (1 bytes))", nil),
        ("", nil),
    ])
    func aReceivedPublishLineGivesItsQoS(line: String, qos: Int32?) {
        #expect(line.withCString { MosquittoLogLine.receivedPublishQoS($0) } == qos)
    }
}
