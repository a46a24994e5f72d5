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

    /// The CONNACK's code says whether the login was refused (MQTT 3.1.1: 4, 5; MQTT 5:
    /// 0x86, 0x87, 0x8C); the same number in the other version means something else.
    @Test(arguments: [
        (5, false, true), (4, false, true), (3, false, false), (0x87, true, true), (0x86, true, true), (0x8C, true, true),
        (0x88, true, false), (5, true, false), (0x87, false, false),
    ] as [(Int32, Bool, Bool)])
    func theBrokersCodeSaysWhetherTheLoginWasRefused(code: Int32, spokeMQTT5: Bool, isAboutLogin: Bool) {
        #expect(MQTTRefusal(code: code, brokerText: "x", spokeMQTT5: spokeMQTT5, retryDelayMs: 0).isAboutLogin == isAboutLogin)
    }

    @Test func theDaemonsSentenceEndsWithItsRetry() {
        let login = BrokerLoginRefusal(username: nil, passwordFile: nil, settings: Self.config)
        let refused = MQTTRefusal(code: 5, brokerText: "Not authorized", spokeMQTT5: false, retryDelayMs: 10_000)
        let unavailable = MQTTRefusal(code: 0x88, brokerText: "Server unavailable", spokeMQTT5: true, retryDelayMs: 2_500)
        #expect(login.text(broker: "h:1", refusal: refused) == "the broker at h:1 wants a username and password, and none was given: "
            + "set mqtt.username and mqtt.password_file in /etc/sb/bridge.yaml (the broker answered \"not authorized\")")
        #expect(login.text(broker: "h:1", refusal: refused, withRetry: true) == login.text(broker: "h:1", refusal: refused) + "; trying again in 10 s")
        #expect(login.text(broker: "h:1", refusal: unavailable, withRetry: true)
            == "the broker at h:1 refused the connection (the broker answered \"server unavailable\"); trying again in 3 s")
    }

    @Test(arguments: [(10_000, "trying again in 10 s"), (200, "trying again in 1 s"), (300_000, "trying again in 300 s")])
    func theRetryIsInSeconds(delayMs: Int, expected: String) {
        #expect(BrokerLoginRefusal.retryText(delayMs: delayMs) == expected)
    }
}
