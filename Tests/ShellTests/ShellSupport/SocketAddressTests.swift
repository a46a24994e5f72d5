#if canImport(Glibc)
import Glibc
#endif
import ShellSupport
import Testing

/// The one `inet_pton` / `inet_ntop` (issue 42): a literal becomes a socket
/// address and reads back as the same text; anything else is refused.
@Suite struct SocketAddressTests {
    @Test(arguments: [
        ("127.0.0.1", 8080, AF_INET, "127.0.0.1"),
        ("0.0.0.0", 0, AF_INET, "0.0.0.0"),
        ("::1", 65_535, AF_INET6, "::1"),
        ("fd00:0:0::1", 1, AF_INET6, "fd00::1"),
        ("::ffff:127.0.0.1", 80, AF_INET6, "::ffff:127.0.0.1"),
    ])
    func aLiteralReadsBackAsItsText(host: String, port: Int, family: Int32, text: String) throws {
        let address = try #require(SocketAddress(literal: host, port: port))
        #expect(address.family == family)
        #expect(address.port == port)
        #expect(address.withSockaddr { pointer, _ in SocketAddress.numericText(pointer) } == text)
    }

    @Test(arguments: [
        ("localhost", 80), ("[::1]", 80), ("127.0.0.01", 80), ("1.2.3", 80), ("", 80),
        ("127.0.0.1", -1), ("127.0.0.1", 65_536),
    ])
    func anythingButALiteralAndAPortIsRefused(host: String, port: Int) {
        #expect(SocketAddress(literal: host, port: port) == nil)
    }

    @Test func aBoundSocketTellsItsPort() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let address = try #require(SocketAddress(literal: "127.0.0.1", port: 0))
        #expect(address.withSockaddr { bind(descriptor, $0, $1) } == 0)
        let bound = try #require(SocketAddress(boundTo: descriptor))
        #expect(bound.port > 0)
        #expect(bound.withSockaddr { address, _ in SocketAddress.numericText(address) } == "127.0.0.1")
    }
}
