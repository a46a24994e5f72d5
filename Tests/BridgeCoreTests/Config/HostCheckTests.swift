import Testing
@testable import BridgeCore

/// Issue 38 item 13, as `check` (and `run`, same decoder) sees it: an octal
/// or URL broker host, an octal API host, refused on their line.
@Suite("One address parser: check")
struct HostCheckTests {
    @Test func checkRefusesAnOctalOrURLBrokerHostOnItsLine() {
        for host in ["127.0.0.010", "mqtt://127.0.0.1:1883"] {
            let result = ConfigLoader.load(text: ConfigURLAndRangeTests.withMQTT("host: \"\(host)\""), fileName: "bridge.yaml")
            #expect(result.config == nil)
            let error = result.errors.first { $0.message.hasPrefix("'host' in 'mqtt' ") }
            #expect(error?.location == SourceLocation(line: 4, column: 9), "\(result.rendered())")
        }
    }

    @Test(arguments: ["api: http://127.0.0.010:5729", "api: http://127.1:5729"])
    func checkRefusesAnOctalAPIHost(line: String) {
        let result = ConfigLoader.load(text: ConfigURLAndRangeTests.withAivi(line), fileName: "bridge.yaml")
        #expect(result.config == nil, "\(result.rendered())")
        #expect(result.errors.first?.location.line == 2)
    }

    @Test(arguments: ["127.0.0.010:8787", "127.1:8787", "192.168.001.010:80"])
    func theStatusListenerRefusesTheSame(listen: String) {
        #expect(ListenAddress.parse(listen) == nil)
    }
}
