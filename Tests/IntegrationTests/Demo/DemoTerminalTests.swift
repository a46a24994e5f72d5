@testable import BridgeDemo
import Testing

/// Issue 41 §3: the demo's terminal as a newcomer reads it. Before: "API token read from
/// environment variable AIVI_DEMO_TOKEN" ("what token?"), debug lines scrolling the page's
/// address away, and `--listen 0.0.0.0` printing `http://<this machine's address>:…`.
@Suite struct DemoTerminalTests {
    @Test func debugLinesAndTheDemoTokensSourceStayOffTheTerminal() {
        let batch = [
            "2026-12-06T02:00:00.000Z info API token read from environment variable AIVI_DEMO_TOKEN",
            "2026-12-06T02:00:00.001Z debug published demo (PATCH #1, HTTP 200)",
            "2026-12-06T02:00:00.002Z info mqtt connected to 127.0.0.1:40000",
            "2026-12-06T02:00:00.003Z warning demo/porch: no answer",
        ].joined(separator: "\n")
        #expect(DemoTerminal.shown(batch) == "2026-12-06T02:00:00.002Z info mqtt connected to 127.0.0.1:40000\n"
                + "2026-12-06T02:00:00.003Z warning demo/porch: no answer")
        #expect(DemoTerminal.shown("2026-12-06T02:00:00.000Z info API token read from environment variable AIVI_TOKEN")
                .hasSuffix("AIVI_TOKEN"), "only the demo's own token line goes")
        #expect(DemoTerminal.shown("2026-12-06T02:00:00.001Z debug x").isEmpty)
    }

    @Test func everyAddressPrintsTheAddressesFound() {
        let found: (Bool) -> [String] = { ipv6 in ipv6 ? ["192.168.1.20", "fd00::20", "127.0.0.1", "::1"] : ["192.168.1.20", "127.0.0.1"] }
        #expect(LocalAddresses.pageURLs(host: "0.0.0.0", port: 8700, found: found) == ["http://192.168.1.20:8700/", "http://127.0.0.1:8700/"])
        #expect(LocalAddresses.pageURLs(host: "::", port: 8700, found: found)
                == ["http://192.168.1.20:8700/", "http://[fd00::20]:8700/", "http://127.0.0.1:8700/", "http://[::1]:8700/"])
        #expect(LocalAddresses.pageURLs(host: "127.0.0.1", port: 8700, found: found) == ["http://127.0.0.1:8700/"])
        #expect(LocalAddresses.pageURLs(host: "::1", port: 8700, found: found) == ["http://[::1]:8700/"])
    }

    /// This machine's interfaces, read with getifaddrs: the loopback is among them, last.
    @Test func theInterfacesOfThisMachineAreRead() {
        let found = LocalAddresses.found(includeIPv6: false)
        #expect(found.last == "127.0.0.1", "\(found)")
        #expect(!found.contains { $0.contains(":") })
    }
}
