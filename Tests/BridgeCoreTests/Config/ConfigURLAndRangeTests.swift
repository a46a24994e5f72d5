import Testing
@testable import BridgeCore

/// Review session 3, F-checkurl, F-maxpayload and the integer wording: what
/// `check` accepts, `run` (same decoder) can use.
@Suite struct ConfigURLAndRangeTests {
    /// `aivi:` lines, then the rest of a valid file; the `aivi` value is on line 2, column 8.
    static func withAivi(_ line: String) -> String {
        "aivi:\n  \(line)\n  token_env: A\nwidgets:\n  - slug: home\n    actions: [{id: x, label: X, publish: {topic: t}}]\n"
    }

    static func withMQTT(_ line: String) -> String {
        "aivi:\n  token_env: A\nmqtt:\n  \(line)\nwidgets:\n  - slug: home\n    actions: [{id: x, label: X, publish: {topic: t}}]\n"
    }

    @Test(arguments: [
        ("api: http://127.0.0.1:99999", "has port 99999: a port must be 1 to 65535"),
        ("api: http://127.0.0.1:0", "a port must be 1 to 65535"),
        ("api: http://[::1:5729", "must be http(s)://HOST[:PORT][/PATH]"),
        ("api: http://[::1]x:5729", "must be http(s)://HOST[:PORT][/PATH]"),
        ("api: http://[zz::1]:5729", "not an IPv6 address in brackets"),
        ("api: \"http://127.0.0.1:5729/a b\"", "must not contain a space"),
        ("api: \"http://127.0.0.1:5729/\\x7f\"", "must not contain a control character (U+007F)"),
        ("api: \"http://127.0.0.1:5729/\\r\\nX: y\"", "must not contain a control character (U+000D)"),
        ("api: http://127.0.0.1:5729?x=1", "must not have a '?query' or '#fragment'"),
        ("api: \"http://127.0.0.1:5729#frag\"", "must not have a '?query' or '#fragment'"),
        ("api: http://127.0.0.1:5729/a%zz", "'%' that is not followed by two hex digits"),
        ("api: http://:5729", "must be http(s)://HOST[:PORT][/PATH]"),
        ("api: http://256.1.1.1", "has host '256.1.1.1': it must be an IPv4 address"),
        ("api: \"http://127.0.0.1:\"", "must be http(s)://HOST[:PORT][/PATH]"),
        ("api: \"https://api.éxample.com\"", "non-ASCII character (U+00E9)"),
        ("api: HTTP://x", "must be a URL starting with https://"),
        ("events_path: \"/ev ents\"", "'events_path' in 'aivi' must not contain a space"),
        ("events_path: \"/ev\\r\\nX-A: b\"", "'events_path' in 'aivi' must not contain a control character (U+000D)"),
        ("events_path: \"/events#x\"", "'events_path' in 'aivi' must not contain '#'"),
        ("events_path: events", "'events_path' in 'aivi' must start with '/'"),
    ])
    func refusesAnAPIURLThatRunCannotUse(line: String, message: String) {
        let result = ConfigLoader.load(text: Self.withAivi(line), fileName: "bridge.yaml")
        #expect(result.config == nil)
        let error = result.errors.first { $0.message.contains(message) }
        #expect(error?.location.line == 2, "\(result.rendered())")
        #expect(error?.location.column == line.firstIndex(of: ":").map { line.distance(from: line.startIndex, to: $0) + 5 },
                "\(result.rendered())")
    }

    @Test(arguments: [
        ("https://api.getaivi.app", "https://api.getaivi.app"),
        ("http://127.0.0.1:57293/", "http://127.0.0.1:57293"),
        ("http://[::1]:8080/base", "http://[::1]:8080/base"),
        ("https://[::ffff:127.0.0.1]", "https://[::ffff:127.0.0.1]"),
        ("https://api.example.com/v1/a%20b", "https://api.example.com/v1/a%20b"),
        ("http://localhost:65535", "http://localhost:65535"),
    ])
    func acceptsTheURLsRunCanUse(api: String, expected: String) throws {
        let result = ConfigLoader.load(text: Self.withAivi("api: \(api)"), fileName: "bridge.yaml")
        let config = try #require(result.config, "\(result.rendered())")
        #expect(config.aivi.apiBaseURL == expected)
        #expect(result.errors.isEmpty)
    }

    @Test func anEventsPathWithAQueryIsStillAccepted() throws {
        let result = ConfigLoader.load(text: Self.withAivi("events_path: /v1/events?widget=all"), fileName: "bridge.yaml")
        #expect(result.config?.aivi.eventsPath == "/v1/events?widget=all", "\(result.rendered())")
    }

    @Test(arguments: [
        ("host: 256.1.1.1", "'host' in 'mqtt' must be an IPv4 address of four numbers of 0 to 255"),
        ("host: 1.2.3.4.5", "must be an IPv4 address"),
        ("host: \"127.0.0.1 \"", "'host' in 'mqtt' must be a host name or IP address without a space"),
        ("host: \" broker.lan\"", "without a space"),
        ("host: \"bro\\tker\"", "without a control character (U+0009)"),
    ])
    func refusesAnMQTTHostThatCanNeverResolve(line: String, message: String) {
        let result = ConfigLoader.load(text: Self.withMQTT(line), fileName: "bridge.yaml")
        #expect(result.config == nil)
        let error = result.errors.first { $0.message.contains(message) }
        #expect(error?.location == SourceLocation(line: 4, column: 9), "\(result.rendered())")
    }

    @Test(arguments: ["broker.lan", "192.168.1.10", "::1", "mqtt-1.example.com", "127.0.0.255"])
    func acceptsHostNamesAndAddresses(host: String) {
        let result = ConfigLoader.load(text: Self.withMQTT("host: \"\(host)\""), fileName: "bridge.yaml")
        #expect(result.config?.mqtt.host == host, "\(result.rendered())")
    }

    @Test func maxPayloadBytesIsCappedAtWhatTheInboxAdmits() throws {
        let refused = ConfigLoader.load(text: Self.withMQTT("max_payload_bytes: 16777216"), fileName: "bridge.yaml")
        let error = try #require(refused.errors.first, "\(refused.rendered())")
        #expect(error.message.contains("must be at most 8388608 (8 MiB; it is 16777216)"), "\(refused.rendered())")
        #expect(error.message.contains("would always be dropped"))
        #expect(error.location == SourceLocation(line: 4, column: 22))
        let accepted = ConfigLoader.load(text: Self.withMQTT("max_payload_bytes: 8388608"), fileName: "bridge.yaml")
        #expect(accepted.config?.mqtt.maxPayloadBytes == MQTTSettings.payloadBytesCeiling, "\(accepted.rendered())")
        #expect(MQTTSettings.inboxMQTTByteBudget >= MQTTSettings.payloadBytesCeiling + 65_535, "the longest topic with the biggest payload")
    }

    @Test(arguments: ["9223372036854775808", "-9223372036854775809", "99999999999999999999999999999", "0xFFFFFFFFFFFFFFFFFF"])
    func aWholeNumberBeyondInt64IsOutOfRangeNotANumber(value: String) throws {
        let text = "aivi: {token_env: A}\ntiming:\n  min_publish_interval_ms: \(value)\nwidgets: []\n"
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        let error = try #require(result.errors.first { $0.message.contains("min_publish_interval_ms") }, "\(result.rendered())")
        #expect(error.message.contains("must be between"), "\(error.message)")
        #expect(error.message.contains("out of range"), "\(error.message)")
        #expect(!error.message.contains("whole number"), "\(error.message)")
        #expect(error.location == SourceLocation(line: 3, column: 28))
    }

    @Test func aDecimalFractionIsStillNotAWholeNumber() throws {
        let text = "aivi: {token_env: A}\ntiming:\n  min_publish_interval_ms: 1.5\nwidgets: []\n"
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(result.errors.contains { $0.message.contains("must be a whole number, not a number") }, "\(result.rendered())")
    }
}
