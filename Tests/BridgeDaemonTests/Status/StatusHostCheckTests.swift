import Testing

@testable import BridgeDaemon

/// Issue 38 item 9 (DNS rebinding): the status server answers only the Host
/// names its listener was configured with, loopback names and literal
/// addresses; a page served from another name (which a rebinding DNS answer
/// points at 127.0.0.1) is refused, so it cannot read lock and door states.
@Suite("Status Host check (issue 38 item 9)")
struct StatusHostCheckTests {
    static let loopback = StatusHostCheck(listenHost: "127.0.0.1", port: 8787)

    @Test(arguments: [
        "127.0.0.1", "127.0.0.1:8787", "localhost", "localhost:8787", "LOCALHOST:8787", "localhost.",
        "[::1]", "[::1]:8787", "192.168.1.20:8787", "10.0.0.2", "[fe80::1]:8787", "sub.localhost:8787",
    ])
    func allowed(host: String) {
        #expect(Self.loopback.allows(host: host), "\(host)")
    }

    @Test(arguments: [
        "evil.example", "evil.example:8787", "127.0.0.1.nip.io", "localhost.evil.example", "", "127.0.0.01",
        "::1", "[::1", "127.0.0.1:", "127.0.0.1:87x", "attacker.com:8787", "0x7f.0.0.1", "2130706433",
    ])
    func refused(host: String) {
        #expect(!Self.loopback.allows(host: host), "\(host)")
    }

    @Test func noHostIsRefused() {
        #expect(!Self.loopback.allows(host: nil))
    }

    @Test func theConfiguredNameIsAllowed() {
        let check = StatusHostCheck(listenHost: "localhost", port: 8787)
        #expect(check.allows(host: "localhost:8787"))
        #expect(!check.allows(host: "example.org"))
    }
}
