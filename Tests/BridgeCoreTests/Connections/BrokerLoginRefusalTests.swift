@testable import BridgeCore
import Testing

/// Issue 22 item 6: what a refused MQTT login says, for each login the bridge gave
/// and each place it is set; a name with a control character is escaped.
struct BrokerLoginRefusalWordingTests {
    static let config = BrokerLoginRefusal.Settings.config(path: "/etc/sb/bridge.yaml")

    @Test(arguments: [
        (nil, nil, config, "the broker at h:1 wants a username and password, and none was given: "
            + "set mqtt.username and mqtt.password_file in /etc/sb/bridge.yaml (the broker answered \"not authorized\")"),
        ("bridge", "/p", config, "the broker at h:1 did not let in the username 'bridge' with the password in /p: check "
            + "mqtt.username and the password in that file (mqtt.password_file in /etc/sb/bridge.yaml) against the broker's users "
            + "(the broker answered \"not authorized\")"),
        ("bridge", nil, .discoverOptions, "the broker at h:1 did not let in the username 'bridge' without a password: "
            + "give --password-file to discover, a file holding its password, or check --username (the broker answered \"not authorized\")"),
        ("a\u{1B}[2Jb", nil, .discoverOptions, "the broker at h:1 did not let in the username 'a\\u{1B}[2Jb' without a password: "
            + "give --password-file to discover, a file holding its password, or check --username (the broker answered \"not authorized\")"),
    ] as [(String?, String?, BrokerLoginRefusal.Settings, String)])
    func aLoginRefusalNamesTheLoginAndTheSetting(username: String?, passwordFile: String?, settings: BrokerLoginRefusal.Settings, expected: String) {
        let refusal = BrokerLoginRefusal(username: username, passwordFile: passwordFile, settings: settings)
        #expect(refusal.text(broker: "h:1", isAboutLogin: true, brokerText: "Not authorized") == expected)
    }

    @Test func anotherRefusalGivesTheBrokersWords() {
        let refusal = BrokerLoginRefusal(username: "bridge", passwordFile: "/p", settings: Self.config)
        #expect(refusal.text(broker: "h:1", isAboutLogin: false, brokerText: "Server unavailable")
            == "the broker at h:1 refused the connection (the broker answered \"server unavailable\")")
    }

    @Test(arguments: [(10_000, "trying again in 10 s"), (200, "trying again in 1 s"), (300_000, "trying again in 300 s")])
    func theRetryIsInSeconds(delayMs: Int, expected: String) {
        #expect(BrokerLoginRefusal.retryText(delayMs: delayMs) == expected)
    }
}
