import BridgeCore
@testable import BridgeDaemon
import Foundation
import Testing

/// Issue 41 §1: every default and range the documentation states is the code's. The
/// man pages disagreed with the code (`protocol` "3.1.1 (default)" where the code speaks
/// 5 first; `max_payload_bytes` up to 16777216 where `check` refuses above 8388608).
/// Each numeric key's entry in `switchboard-bridge.yaml(5)` says `Range: LO\-HI.` and
/// `Default: VALUE.`; the range is probed against the config decoder (LO and HI
/// accepted, LO − 1 and HI + 1 refused) and the default compared with the value the
/// code starts from. The README's and the example config's stated defaults, and
/// man 1's option defaults, are compared the same way.
@Suite struct ConfigDefaultsDocumentedTests {
    static let manPage5 = (try? PackagingTests.text("packaging/man/switchboard-bridge.yaml.5")) ?? ""
    static let manPage1 = (try? PackagingTests.text("packaging/man/switchboard-bridge.1")) ?? ""
    static let readme = (try? PackagingTests.text("README.md")) ?? ""

    /// A key of the config, where man 5 documents it, how to write it into a config, and
    /// the code's default (nil when it has none, or it is stated in words).
    struct Setting: CustomTestStringConvertible, Sendable {
        var section: String
        var key: String
        var config: @Sendable (String) -> String
        var codeDefault: String?
        var testDescription: String { "\(section): \(key)" }
    }

    static let toggle = "        zigbee2mqtt: porch\n"

    /// A whole config, valid but for what `insert` adds at `place`.
    static func yaml(top: String = "", mqtt: String = "", widget: String = "", action: String = toggle) -> String {
        "aivi:\n  token_env: AIVI_TOKEN\nmqtt:\n  host: 127.0.0.1\n\(mqtt)\(top)widgets:\n  - slug: home\n\(widget)    actions:\n"
            + "      - id: porch\n        label: Porch\n\(action)"
    }

    static func timing(_ key: String, _ value: @escaping @Sendable (TimingSettings) -> Int64) -> Setting {
        Setting(section: "TIMING", key: key, config: { yaml(top: "timing:\n  \(key): \($0)\n") },
                codeDefault: String(value(TimingSettings())))
    }

    static let settings: [Setting] = [
        timing("confirm_timeout_ms") { $0.confirmTimeoutMs },
        timing("settle_window_ms") { $0.settleWindowMs },
        // Each with the other at its extreme: the cap may not be below the first delay.
        Setting(section: "TIMING", key: "publish_retry_initial_ms",
                config: { yaml(top: "timing:\n  publish_retry_initial_ms: \($0)\n  publish_retry_cap_ms: 3600000\n") },
                codeDefault: String(TimingSettings().publishRetryInitialMs)),
        Setting(section: "TIMING", key: "publish_retry_cap_ms",
                config: { yaml(top: "timing:\n  publish_retry_cap_ms: \($0)\n  publish_retry_initial_ms: 1\n") },
                codeDefault: String(TimingSettings().publishRetryCapMs)),
        timing("permanent_error_retry_ms") { $0.permanentErrorRetryMs },
        timing("dedupe_margin_ms") { $0.dedupeMarginMs },
        timing("dedupe_capacity") { Int64($0.dedupeCapacity) },
        timing("stream_dead_after_ms") { $0.streamDeadAfterMs },
        timing("stop_grace_ms") { $0.stopGraceMs },
        timing("button_answer_window_ms") { $0.buttonAnswerWindowMs },
        timing("min_publish_interval_ms") { $0.minPublishIntervalMs },
        Setting(section: "MQTT", key: "port", config: { yaml(mqtt: "  port: \($0)\n") }, codeDefault: String(MQTTSettings().port)),
        Setting(section: "MQTT", key: "keepalive_s", config: { yaml(mqtt: "  keepalive_s: \($0)\n") },
                codeDefault: String(MQTTSettings().keepaliveSeconds)),
        Setting(section: "MQTT", key: "max_payload_bytes", config: { yaml(mqtt: "  max_payload_bytes: \($0)\n") },
                codeDefault: String(MQTTSettings().maxPayloadBytes)),
        Setting(section: "MQTT", key: "host", config: { _ in "" }, codeDefault: MQTTSettings().host),
        Setting(section: "MQTT", key: "client_id", config: { _ in "" }, codeDefault: MQTTSettings().clientId),
        Setting(section: "MQTT", key: "status_topic", config: { _ in "" }, codeDefault: MQTTSettings().statusTopic),
        Setting(section: "MQTT", key: "zigbee2mqtt_base_topic", config: { _ in "" }, codeDefault: MQTTSettings().zigbee2mqttBaseTopic),
        Setting(section: "STATUS", key: "refresh_s", config: { yaml(top: "status:\n  refresh_s: \($0)\n") },
                codeDefault: String(StatusSettings().refreshSeconds)),
        Setting(section: "STATUS", key: "listen", config: { _ in "" }, codeDefault: StatusSettings().listen),
        Setting(section: "STATUS", key: "path", config: { _ in "" }, codeDefault: StatusSettings().path),
        Setting(section: "AIVI", key: "api", config: { _ in "" }, codeDefault: AiviSettings().apiBaseURL),
        Setting(section: "AIVI", key: "events_path", config: { _ in "" }, codeDefault: AiviSettings().eventsPath),
        Setting(section: "TOP LEVEL", key: "state_dir", config: { _ in "" }, codeDefault: BridgeConfig().stateDirectory),
        Setting(section: "WIDGETS", key: "min_publish_interval_ms", config: { yaml(widget: "    min_publish_interval_ms: \($0)\n") },
                codeDefault: nil),
        Setting(section: "Toggles", key: "confirm_timeout_ms", config: { yaml(action: toggle + "        confirm_timeout_ms: \($0)\n") },
                codeDefault: nil),
        Setting(section: "Covers, doors and locks", key: "travel_time_ms",
                config: { yaml(action: "        zigbee2mqtt_cover: garage\n        travel_time_ms: \($0)\n") }, codeDefault: nil),
        Setting(section: "Buttons", key: "qos",
                config: { yaml(action: "        publish: {topic: home/scene, payload: movie, qos: \($0)}\n") }, codeDefault: "1"),
    ]

    /// The text of the `.TP` entry whose tag line is `.B key`, within `.SH`/`.SS section`,
    /// roff escapes and font macros removed.
    static func entry(_ key: String, in section: String) -> String? {
        let lines = manPage5.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0 == ".SH \(section)" || $0 == ".SS \(section)" }) else { return nil }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { $0.hasPrefix(".SH ") || $0.hasPrefix(".SS ") } ?? lines.endIndex
        let sectionLines = lines[(start + 1)..<end]
        guard let tag = sectionLines.firstIndex(of: ".B \(key)") else { return nil }
        let body = sectionLines[(tag + 1)...].prefix { ![".TP", ".SH", ".SS", ".PP", ".RE", ".RS", ".IP"].contains(where: $0.hasPrefix) }
        return plain(body.joined(separator: " "))
    }

    /// Roff as text: font macros and escapes gone.
    static func plain(_ roff: String) -> String {
        var text = roff
        for (escape, replacement) in [("\\-", "-"), ("\\fR", ""), ("\\fB", ""), ("\\fI", ""), ("\\fP", ""), ("\\(aq", "'"), ("\\(dq", "\""), ("\\ ", " ")] {
            text = text.replacingOccurrences(of: escape, with: replacement)
        }
        for macro in [".BR ", ".RB ", ".BI ", ".IB ", ".IR ", ".RI ", ".B ", ".I "] {
            text = text.replacingOccurrences(of: macro, with: "")
        }
        text = text.replacingOccurrences(of: "\"", with: "")
        for (spaced, tight) in [(" :", ":"), (" ;", ";"), (" ,", ","), (" )", ")"), ("( ", "("), (" .", ".")] {
            text = text.replacingOccurrences(of: spaced, with: tight)
        }
        return text
    }

    /// `Range: LO-HI` in an entry.
    static func range(in text: String) -> ClosedRange<Int64>? {
        guard let match = text.firstMatch(of: /Range: (-?[0-9]+)-([0-9]+)/),
              let low = Int64(match.1), let high = Int64(match.2), low <= high else { return nil }
        return low...high
    }

    /// `Default: VALUE` in an entry (a final '.' or ',' is the sentence's).
    static func documentedDefault(in text: String) -> String? {
        guard let match = text.firstMatch(of: /Default: ([^ ]+)/) else { return nil }
        var value = String(match.1)
        while let last = value.last, [".", ",", ";"].contains(last) { value.removeLast() }
        return value
    }

    static func accepted(_ setting: Setting, _ value: Int64) -> Bool {
        ConfigLoader.load(text: setting.config(String(value)), fileName: "bridge.yaml").config != nil
    }

    @Test(arguments: settings)
    func theManPageStatesTheCodesDefaultAndRange(setting: Setting) throws {
        let text = try #require(Self.entry(setting.key, in: setting.section),
                                "no '.TP' / '.B \(setting.key)' under '\(setting.section)' in packaging/man/switchboard-bridge.yaml.5")
        if let codeDefault = setting.codeDefault {
            #expect(Self.documentedDefault(in: text) == codeDefault, "man 5, \(setting.key): write 'Default: \(codeDefault).' (\(text))")
        }
        guard !setting.config("1").isEmpty else { return }
        let range = try #require(Self.range(in: text), "man 5, \(setting.key): a number's entry says 'Range: LO\\-HI.' (\(text))")
        #expect(Self.accepted(setting, range.lowerBound), "\(setting.key): \(range.lowerBound), the documented least, is refused")
        #expect(Self.accepted(setting, range.upperBound), "\(setting.key): \(range.upperBound), the documented most, is refused")
        #expect(!Self.accepted(setting, range.lowerBound - 1), "\(setting.key): \(range.lowerBound - 1), below the documented range, is taken")
        #expect(!Self.accepted(setting, range.upperBound + 1), "\(setting.key): \(range.upperBound + 1), above the documented range, is taken")
        if let codeDefault = setting.codeDefault, let value = Int64(codeDefault) {
            #expect(range.contains(value), "\(setting.key): the default \(value) is outside the documented range")
        }
    }

    /// `channel`'s range per preset, as man 5 lists them ("Range: LO-HI for PRESET"),
    /// probed against the decoder; every preset with a numbered channel is listed.
    @Test func everyPresetsChannelRangeIsTheCodes() throws {
        let text = try #require(Self.entry("channel", in: "Toggles"))
        let ranges = text.matches(of: /Range: ([0-9]+)-([0-9]+) for ([a-z0-9_]+)/).compactMap { match -> (String, ClosedRange<Int64>)? in
            guard let low = Int64(match.1), let high = Int64(match.2) else { return nil }
            return (String(match.3), low...high)
        }
        #expect(Set(ranges.map(\.0)) == ["tasmota", "tasmota_shutter", "shelly", "shelly_plus", "shelly_light", "shelly_plus_light",
                                          "shelly_plus_rgbw", "shelly_roller", "shelly_plus_cover"], "\(text)")
        for (preset, range) in ranges {
            let target = preset.hasPrefix("tasmota") ? "plug" : "shellyplus1-a8032ab12345"
            let accepts = { (channel: Int64) in
                ConfigLoader.load(text: Self.yaml(action: "        \(preset): \(target)\n        channel: \(channel)\n"), fileName: "b.yaml").config != nil
            }
            #expect(accepts(range.lowerBound) && accepts(range.upperBound), "\(preset): \(range) is documented")
            #expect(!accepts(range.lowerBound - 1) && !accepts(range.upperBound + 1), "\(preset): the code takes more than \(range)")
        }
    }

    /// The two defaults said in words: `protocol` (5 first, 3.1.1 when the broker refuses
    /// it: the code's nil) and a cover's and a lock's travel time.
    @Test func theDefaultsSaidInWordsAreTheCodes() throws {
        let protocolEntry = try #require(Self.entry("protocol", in: "MQTT"))
        #expect(MQTTSettings().protocolVersion == nil)
        #expect(Self.documentedDefault(in: protocolEntry) == MQTTProtocolVersion.v5.rawValue, "\(protocolEntry)")
        #expect(protocolEntry.contains("falling back to \(MQTTProtocolVersion.v311.rawValue)"), "\(protocolEntry)")
        let travel = try #require(Self.entry("travel_time_ms", in: "Covers, doors and locks"))
        #expect(travel.contains("Default: \(TileDevice.cover.defaultTravelTimeMs) for a cover, \(TileDevice.lock.defaultTravelTimeMs) for a lock"),
                "\(travel)")
    }

    /// Every `.B key` entry under TIMING is in the table above, so a new timing key
    /// cannot be documented without its default and range being checked.
    @Test func everyTimingKeyIsChecked() {
        let checked = Set(Self.settings.filter { $0.section == "TIMING" }.map(\.key))
        let missing = Set(ConfigKeys.timing).subtracting(checked).sorted()
        #expect(checked == Set(ConfigKeys.timing), "add the missing keys to ConfigDefaultsDocumentedTests.settings: \(missing)")
    }

    /// What the README says of a default: the confirm timeout in seconds, the status
    /// page's address; and every "`key` (N" or "`key: N`" it writes, for a numeric key.
    @Test func theReadmeStatesTheCodesDefaults() throws {
        let seconds = TimingSettings().confirmTimeoutMs / 1000
        let confirm = Self.readme.contains("within \(seconds) s\n(`timing.confirm_timeout_ms`)")
            || Self.readme.contains("within \(seconds) s (`timing.confirm_timeout_ms`)")
        #expect(confirm, "README: the bridge answers within \(seconds) s (`timing.confirm_timeout_ms`)")
        let listen = StatusSettings().listen
        let statesListen = Self.readme.contains("listen: \(listen)")
        #expect(statesListen, "README: the status page's address is \(listen)")
        let port = try #require(listen.split(separator: ":").last)
        let forwards = Self.readme.contains("ssh -N -L \(port):127.0.0.1:\(port) ")
        #expect(forwards, "README: the ssh line forwards port \(port)")
        let defaults = Dictionary(Self.settings.compactMap { setting in setting.codeDefault.map { (setting.key, $0) } }) { first, _ in first }
        for match in Self.readme.matches(of: /`(?:[a-z0-9_]+\.)?([a-z0-9_]+)(?:` \(|: )([0-9]+)[ `),]/) {
            guard let codeDefault = defaults[String(match.1)] else { continue }
            #expect(String(match.2) == codeDefault, "README says \(match.0), the code's default is \(codeDefault)")
        }
    }

    /// config/bridge.example.yaml marks values `# default`: each is the code's.
    @Test func theExampleConfigsDefaultsAreTheCodes() throws {
        let example = try PackagingTests.text("config/bridge.example.yaml")
        let defaults = Dictionary(Self.settings.compactMap { setting in setting.codeDefault.map { (setting.key, $0) } }) { first, _ in first }
        var checked = 0
        for line in example.split(separator: "\n") where line.contains("# default") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
            let pair = line.split(separator: "#")[0].split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, let codeDefault = defaults[pair[0]] else { continue }
            #expect(pair[1] == codeDefault, "config/bridge.example.yaml: \(line)")
            checked += 1
        }
        #expect(checked >= 4)
    }

    /// man 1's option defaults: discover's and `check --mqtt`'s listening, discover's
    /// widget, prefix and broker.
    @Test func theOptionDefaultsOfManPage1AreTheCodes() {
        let page = Self.plain(Self.manPage1.replacingOccurrences(of: "\n", with: " \n"))
            .replacingOccurrences(of: " \n", with: " ").replacingOccurrences(of: "  ", with: " ")
        let range = DiscoverCommand.listenSecondsRange
        let statements = [
            "seconds (\(range.lowerBound) to \(range.upperBound), default \(DiscoverCommand.defaultListenSeconds))",
            "check --mqtt: listen n seconds (default \(WatchCommand.checkListenSeconds))",
            "the widget's slug (default \(DiscoverArguments().widget))",
            "discovery prefix (default \(DiscoverArguments().homeAssistantPrefix))",
            "(default \(MQTTSettings().host); --port is its port, default \(MQTTSettings().port))",
            "Default: \(UsageText.defaultConfigPath)",
        ]
        for statement in statements {
            let stated = page.contains(statement)
            #expect(stated, "packaging/man/switchboard-bridge.1 should say: \(statement)")
        }
    }
}
