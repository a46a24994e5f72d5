import Testing
@testable import BridgeCore

/// Issue 38 item 13: one address parser (`HostAddress`) for `check`, `run`,
/// `discover` and the status listener. A number with a leading zero
/// (getaddrinfo reads `010` as octal: 127.0.0.010 is 127.0.0.8), fewer than
/// four numbers (127.1), a scheme or a port in a host are refused with the fix.
@Suite("One address parser")
struct HostAddressTests {
    @Test(arguments: [
        ("127.0.0.010", "a number with a leading zero, which the resolver reads as octal (so it would connect to 127.0.0.8); write 127.0.0.10"),
        ("192.168.001.010", "write 192.168.1.10"),
        ("127.1", "must be an IPv4 address of four numbers of 0 to 255 (like 192.168.1.10), not '127.1'"),
        ("0x7f.0.0.1", "must be an IPv4 address of four numbers of 0 to 255"),
        ("256.1.1.1", "must be an IPv4 address of four numbers of 0 to 255"),
        ("mqtt://127.0.0.1:1883", "is a URL: write the host alone, 127.0.0.1 (the port goes in 'port')"),
        ("mqtts://broker.lan", "is a URL: write the host alone, broker.lan"),
        ("127.0.0.1:1883", "has a port: write the host alone, 127.0.0.1 (the port goes in 'port')"),
        ("broker.lan:1883", "has a port: write the host alone, broker.lan"),
        ("[::1]", "write the IPv6 address without brackets, ::1"),
        ("bro ker", "without a space"),
        ("", "must not be empty"),
    ])
    func refusesWithTheFix(host: String, problem: String) {
        guard case .failure(let refusal) = HostAddress.parse(host) else {
            Issue.record("'\(host)' was accepted")
            return
        }
        #expect(refusal.message.contains(problem), "\(refusal.message)")
    }

    @Test(arguments: [
        ("127.0.0.1", true, true), ("192.168.1.10", true, false), ("0.0.0.0", true, false), ("::1", true, true),
        ("::ffff:127.0.0.1", true, true), ("fe80::1", true, false), ("localhost", false, true), ("broker.lan", false, false),
        ("mqtt-1.example.com", false, false), ("127.0.0.255", true, true), ("10.0.0.100", true, false),
    ])
    func acceptsAddressesAndNames(host: String, isLiteral: Bool, isLoopback: Bool) throws {
        let address = try HostAddress.parse(host).get()
        #expect(address.isLiteral == isLiteral)
        #expect(address.isLoopback == isLoopback)
    }
}
