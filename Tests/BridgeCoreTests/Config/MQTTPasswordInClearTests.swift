import Testing
@testable import BridgeCore

/// Issue 19, item 18: an MQTT password sent to a broker on another machine
/// without TLS crosses the network in clear; `check` (and the start's log) warn on
/// the `password_file` line. A broker on this machine, or TLS, needs no warning.
@Suite("An MQTT password without TLS to a remote broker is warned about")
struct MQTTPasswordInClearTests {
    static let cases: [(mqtt: String, warns: Bool)] = [
        ("host: 192.168.1.10", true),
        ("host: broker.lan", true),
        ("host: 192.168.1.10\n  tls: false", true),
        ("host: \"fd00::1\"", true),
        ("host: 192.168.1.10\n  tls: true", false),
        ("host: broker.lan\n  tls: {ca_file: /etc/ssl/ca.pem}", false),
        ("host: 127.0.0.1", false),
        ("host: 127.0.1.1", false),
        ("host: localhost", false),
        ("host: \"::1\"", false),
        ("port: 1883", false),  // the default host, 127.0.0.1
    ]

    @Test(arguments: cases.indices)
    func warnsOnThePasswordLine(index: Int) throws {
        let (mqtt, warns) = Self.cases[index]
        let text = "mqtt:\n  \(mqtt)\n  username: bridge\n  password_file: /etc/switchboard-bridge/mqtt-password\n"
            + ConfigFixture.withAction("id: a\nlabel: A\npublish: {topic: t, payload: p}")
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(result.config != nil, "\(result.rendered())")
        let warning = result.warnings.first { $0.message.contains("the MQTT password would travel unencrypted") }
        #expect((warning != nil) == warns, "\(mqtt): \(result.rendered())")
        if let warning {
            let passwordLine = mqtt.split(separator: "\n").count + 3
            #expect(warning.location.line == passwordLine, "\(result.rendered())")
            #expect(warning.message.contains("add 'tls: true'"))
        }
    }
}
