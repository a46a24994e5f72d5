/// `mqtt.host` as libmosquitto resolves it: a host name or an IP address.
/// Names stay free (any resolver may know them); what can never resolve is
/// refused: surrounding spaces, controls, a dotted quad out of range.
public enum MQTTHostRules {
    /// Why libmosquitto could never connect to `host`, or nil.
    public static func problem(with host: String) -> String? {
        if let bad = host.unicodeScalars.first(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "must be a host name or IP address without \(APIURLRules.describe(bad)) (it would never resolve)"
        }
        return dottedQuadProblem(host)
    }

    /// Whether `host` is this machine only (`localhost`, 127.0.0.0/8, `::1`), read
    /// as the status listener's addresses are (`ListenAddress`): nothing sent to it
    /// crosses a network.
    public static func isLoopback(_ host: String) -> Bool {
        let literal = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return ListenAddress.parse(literal + ":1")?.isLoopback == true
    }

    /// Digits and dots only: an IPv4 address, four parts of 0 to 255.
    static func dottedQuadProblem(_ host: String) -> String? {
        guard !host.isEmpty, host.allSatisfy({ $0 == "." || ($0.isASCII && $0.isNumber) }) else { return nil }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        let valid = parts.count <= 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && (Int($0) ?? 256) <= 255 }
        return valid ? nil : "must be an IPv4 address of four numbers of 0 to 255 (like 192.168.1.10), not '\(host)'"
    }
}
