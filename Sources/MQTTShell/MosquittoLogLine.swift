import Glibc

/// What the shell reads from libmosquitto's own log lines: the only place
/// libmosquitto 2.0 tells its caller that a QoS 2 PUBLISH arrived (it calls the
/// message callback only at the broker's PUBREL, and keeps the message until then).
///
/// The markers are kept as C strings: a Swift `String` handed to `strstr` is copied
/// into a new C array on every call (~260 instructions, a line of every packet in
/// or out: 3 a press).
enum MosquittoLogLine {
    /// The marker of libmosquitto's line for each incoming PUBLISH:
    /// `Client <id> received PUBLISH (d0, q2, r0, m1, '<topic>', ... (60000 bytes))`.
    private static let receivedPublish = "received PUBLISH (d".utf8CString

    /// The QoS of the PUBLISH this line reports, or nil for any other line.
    static func receivedPublishQoS(_ line: UnsafePointer<CChar>) -> Int32? {
        guard let found = find(receivedPublish, in: line) else { return nil }
        var cursor = found + (receivedPublish.count - 1)
        while isDigit(cursor.pointee) { cursor += 1 }
        guard cursor[0] == CChar(UInt8(ascii: ",")), cursor[1] == CChar(UInt8(ascii: " ")), cursor[2] == CChar(UInt8(ascii: "q")),
              isDigit(cursor[3]) else { return nil }
        return Int32(cursor[3]) - Int32(UInt8(ascii: "0"))
    }

    /// libmosquitto's own host name check, logged at MOSQ_LOG_ERR.
    private static let hostNameFailed = "host name verification failed".utf8CString
    /// The marker of each OpenSSL error libmosquitto logs after a failed handshake.
    private static let openSSLError = "OpenSSL Error[".utf8CString
    /// OpenSSL's text for a chain that does not verify (whatever the verify error was).
    private static let verifyFailed = "certificate verify failed".utf8CString

    /// The TLS failure this error line reports, or nil for any other line.
    static func tlsFailure(_ line: UnsafePointer<CChar>) -> MQTTTLSFailure? {
        if find(hostNameFailed, in: line) != nil { return .hostNameMismatch }
        guard let found = find(openSSLError, in: line) else { return nil }
        if find(verifyFailed, in: found) != nil { return .untrustedChain }
        let start = strstr(found, "]: ").map { UnsafePointer($0) + 3 } ?? UnsafePointer(found)
        let count = strnlen(start, MQTTTLSFailure.maxTextBytes)
        return .other(String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self))
    }

    /// Where `marker` (a C string) first occurs in `line`, if it does.
    private static func find(_ marker: ContiguousArray<CChar>, in line: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
        marker.withUnsafeBufferPointer { $0.baseAddress.flatMap { strstr(line, $0) } }.map { UnsafePointer($0) }
    }

    private static func isDigit(_ character: CChar) -> Bool {
        character >= CChar(UInt8(ascii: "0")) && character <= CChar(UInt8(ascii: "9"))
    }
}
