import Testing
@testable import BridgeCore

/// Review session 3, F-tls: a key written with no value (`tls:` whose
/// sub-keys are commented out, `repeat_safe: ~`) was read as absent, so its
/// default applied in silence: plaintext MQTT, a press replayed after a crash.
@Suite struct ConfigNullValueTests {
    static func settings(_ mqtt: String) -> String {
        "aivi:\n  token_env: A\nmqtt:\n  host: h\n\(mqtt)\nwidgets:\n  - slug: home\n    actions: [{id: x, label: X, publish: {topic: t}}]\n"
    }

    @Test(arguments: ["  tls:", "  tls:\n    # ca_file: /etc/ssl/certs/ca-certificates.crt", "  tls: ~", "  tls: null"])
    func aTLSKeyWithNoValueMeansTLSWithTheSystemCAsAndSaysSo(form: String) throws {
        let result = ConfigLoader.load(text: Self.settings(form), fileName: "bridge.yaml")
        let config = try #require(result.config, "\(result.rendered())")
        #expect(config.mqtt.tls == MQTTTLSSettings(), "never plaintext when 'tls' is written")
        let warning = try #require(result.warnings.first { $0.message.contains("'tls' in 'mqtt' has no value") }, "\(result.rendered())")
        #expect(warning.location == SourceLocation(line: 5, column: 3))
        #expect(warning.message.contains("tls: false"))
    }

    @Test func tlsFalseStaysPlainWithoutAWarning() throws {
        let result = ConfigLoader.load(text: Self.settings("  tls: false"), fileName: "bridge.yaml")
        #expect(result.config?.mqtt.tls == nil)
        #expect(result.diagnostics.isEmpty, "\(result.rendered())")
    }

    @Test(arguments: ["repeat_safe:", "repeat_safe: ~", "repeat_safe: null"])
    func repeatSafeWithNoValueIsRefusedOnItsLine(form: String) {
        let (action, result) = ConfigFixture.loadAction("id: a\nlabel: A\npublish: {topic: t}\n\(form)")
        #expect(action == nil)
        let error = result.errors.first { $0.message.contains("'repeat_safe' in action 'a' has no value: write true or false") }
        #expect(error?.location == SourceLocation(line: 9, column: 9), "\(result.rendered())")
    }

    @Test(arguments: [
        ("id: a\nlabel: A\npublish:\n  topic: t\n  payload: ~", 10, 11, "'payload' in 'publish' of action 'a' has no value"),
        ("id: a\nlabel: A\npublish:\n  topic: t\n  qos:", 10, 11, "'qos' in 'publish' of action 'a' has no value"),
        ("id: a\nlabel: A\npublish:\n  topic: t\n  retain: null", 10, 11, "'retain' in 'publish' of action 'a' has no value"),
        ("id: a\nlabel: A\ntasmota: t\npayload_on: ~", 9, 9, "'payload_on' in action 'a' has no value, so its default is used"),
        ("id: a\nlabel: A\ntasmota: t\nstate_query:", 9, 9, "'state_query' in action 'a' has no value"),
    ])
    func otherKeysWithNoValueWarnThatTheDefaultApplies(yaml: String, line: Int, column: Int, message: String) {
        let (action, result) = ConfigFixture.loadAction(yaml)
        #expect(action != nil, "\(result.rendered())")
        let warning = result.warnings.first { $0.message.contains(message) }
        #expect(warning?.location == SourceLocation(line: line, column: column), "\(result.rendered())")
    }
}
