import Testing
@testable import BridgeCore

/// Schema errors of one action, with their exact line:column. The action's
/// first key is at 6:9 and each further line adds one (see `ConfigFixture`).
@Suite struct ConfigValidationTests {
    @Test(arguments: [
        ("id: a\nlabel: A\nzigbee2mqtt: p\ncomand_topic: x", 9, 9, "unknown key 'comand_topic' in action 'a' (did you mean 'command_topic'?)"),
        ("id: a\nlabel: A\ntasmota: t\nchanel: 2", 9, 9, "(did you mean 'channel'?)"),
        ("id: a\npublish: {topic: t}", 6, 9, "missing required key 'label' in action 'a'"),
        ("label: A\npublish: {topic: t}", 6, 9, "missing required key 'id' in action #1 of widget 'home'"),
        ("id: a\nlabel: [A]\npublish: {topic: t}", 7, 16, "'label' in action 'a' must be text, not a list"),
        ("id: a\nlabel: A\nkind: switch", 8, 15, "'kind' in action 'a' must be 'toggle' or 'button'"),
        ("id: a\nlabel: A", 6, 9, "action 'a' is a button and needs something to publish"),
        ("id: a\nlabel: A\nkind: toggle\nstate_topic: s", 6, 9, "is a toggle and needs a command"),
        ("id: a\nlabel: A\nkind: toggle\ncommand_topic: c", 6, 9, "is a toggle and needs a state source"),
        ("id: a\nlabel: A\nkind: toggle\ncommand_topic: c/#\nstate_topic: s", 9, 24, "'command_topic' in action 'a' must not contain the MQTT wildcards"),
        ("id: a\nlabel: A\nkind: toggle\ncommand_topic: c\nstate_topic: \"\"", 10, 22, "'state_topic' in action 'a' must not be empty"),
        ("id: a\nlabel: A\nkind: toggle\ncommand_topic: c\nstate_topic: \"a\\0b\"", 10, 22, "must not contain a NUL character"),
        ("id: a\nlabel: A\npublish: {topic: t}\ncommand_topic: c", 9, 9, "'command_topic' in action 'a' only applies to toggles; add 'kind: toggle'"),
        ("id: a\nlabel: A\ntasmota: t\npublish: {topic: t}", 9, 9, "'publish' in action 'a' only applies to buttons"),
        ("id: a\nlabel: A\ntasmota: t\nshelly: s", 9, 9, "an action can use only one device preset"),
        ("id: a\nlabel: A\ntasmota: t\nchannel: 0", 9, 18, "'channel' in action 'a' must be the relay number, 1 to 32"),
        ("id: a\nlabel: A\nesphome: t\n", 8, 18, "'esphome' in action 'a' must be 'NODE/NAME'"),
        ("id: a\nlabel: A\nesphome: n/s\nchannel: 1", 9, 18, "does not apply to esphome"),
        ("id: a\nlabel: A\ntasmota: a+b", 8, 18, "the topic 'stat/a+b/POWER' made by 'tasmota: a+b'"),
        // Issue 22 item 10: the Topic with its prefix (topics became stat/stat/...) and a FriendlyName with a space.
        ("id: a\nlabel: A\ntasmota: stat/tasmota_A1B2C3", 8, 18, "'tasmota' in action 'a' names the device's Topic, without 'stat/' "
            + "(the preset adds cmnd/, stat/ and tele/ itself): write 'tasmota_A1B2C3'"),
        ("id: a\nlabel: A\ntasmota: Terrace Plug", 8, 18, "'tasmota' in action 'a' must be the device's Topic (Configuration → MQTT → "
            + "Topic), which has no spaces: Tasmota turns them into '_' (write 'Terrace_Plug' if that is its Topic; its FriendlyName is not used)"),
        ("id: a\nlabel: A\ntasmota_shutter: cmnd/blinds", 8, 26, "write 'blinds'"),
        ("id: a\nlabel: A\npublish: {topic: t, qos: 3}", 8, 34, "'qos' in 'publish' of action 'a' must be between 0 and 2"),
        ("id: a\nlabel: A\npublish: {payload: x}", 8, 18, "missing required key 'topic' in 'publish' of action 'a'"),
        ("id: a\nlabel: A\npublish: []", 8, 18, "must list at least one message"),
        ("id: a\nlabel: A\npublish: {topic: t}\nactive_topic: s", 9, 9, "'active_topic' in action 'a' needs 'active_value'"),
        ("id: a\nlabel: A\npublish: {topic: t}\nrepeat_safe: no", 9, 22, "'repeat_safe' in action 'a' must be true or false, not the text 'no': write false"),
        ("id: a\nlabel: A\ntasmota: t\nconfirm_timeout_ms: 15000", 9, 29, "between 1 and 14999"),
        ("id: a\nlabel: A\npublish: {topic: t}\nextra: {on: true}", 9, 17, "'on' under 'extra' in action 'a' is a field the bridge sets itself"),
        ("id: a\nlabel: A\npublish: {topic: t}\nsubtitle: x\nextra: {subtitle: y}", 10, 17, "'subtitle' under 'extra' in action 'a' is already set"),
        ("id: a\nlabel: A\npublish: {topic: t}\nextra: [x]", 9, 16, "'extra' in action 'a' must be a mapping"),
        ("id: a\nlabel: A\npublish: {topic: t}\nstate_field: x", 9, 9, "'state_field' in action 'a' only applies to toggles"),
        ("id: a\nlabel: A\nkind: toggle\ncommand_topic: c\nstate_topic: s\nstate_field: a..b", 11, 22, "dotted path"),
    ])
    func reportsActionErrors(yaml: String, line: Int, column: Int, message: String) {
        let (action, result) = ConfigFixture.loadAction(yaml)
        #expect(action == nil)
        let matching = result.errors.first { $0.message.contains(message) }
        #expect(matching?.location == SourceLocation(line: line, column: column), "\(result.rendered())")
    }

    @Test(arguments: [
        ("aivi: {}\nwidgets: []\n", 1, 7, "'aivi' needs the API token"),
        ("aivi: {token_env: 'A B'}\n", 1, 19, "environment variable name"),
        ("aivi: {token_env: A, api: ftp://x}\n", 1, 27, "must be a URL starting with https://"),
        ("aivi: {token_env: A}\n", 1, 1, "missing required key 'widgets'"),
        ("widgets: []\n", 1, 1, "missing required key 'aivi'"),
        ("aivi: {token_env: A}\nwidgets: []\n", 2, 10, "'widgets' must list at least one widget"),
        ("aivi: {token_env: A}\nwidgets: {a: 1}\n", 2, 10, "'widgets' must be a list"),
        ("aivi: {token_env: A}\nwidget: []\n", 2, 1, "unknown key 'widget' at the top level (did you mean 'widgets'?)"),
        ("aivi: {token_env: A}\nmqtt: {port: '1883'}\nwidgets: []\n", 2, 14, "'port' in 'mqtt' must be a whole number, not a string"),
        ("aivi: {token_env: A}\nmqtt: {protocol: 4}\nwidgets: []\n", 2, 18, "'protocol' in 'mqtt' must be 3.1.1 or 5"),
        ("aivi: {token_env: A}\nmqtt: {password_file: /p}\nwidgets: []\n", 2, 8, "'password_file' in 'mqtt' needs 'username'"),
        ("aivi: {token_env: A}\nmqtt: {status_topic: a/#}\nwidgets: []\n", 2, 22, "'status_topic' in 'mqtt' must not contain the MQTT wildcards"),
        ("aivi: {token_env: A}\nmqtt: {tls: {cafile: x}}\nwidgets: []\n", 2, 14, "unknown key 'cafile' in 'mqtt.tls' (did you mean 'ca_file'?)"),
        ("aivi: {token_env: A}\nstatus: {listen: 8787}\nwidgets: []\n", 2, 18, "'listen' in 'status' must be HOST:PORT"),
        ("aivi: {token_env: A}\ntiming: {confirm_timeout_ms: 20000}\nwidgets: []\n", 2, 30, "'confirm_timeout_ms' in 'timing' must be between 1 and 14999"),
        ("aivi: {token_env: A}\ntiming: {publish_retry_cap_ms: 10, publish_retry_initial_ms: 100}\nwidgets: []\n", 2, 32, "must not be below"),
        ("aivi: {token_env: A}\nwidgets:\n  - slug: a b\n    actions: [{id: x, label: X, publish: {topic: t}}]\n", 3, 11, "'slug' in widget 'a b' may only use"),
        ("aivi: {token_env: A}\nwidgets:\n  - slug: a\n", 3, 5, "missing required key 'actions' in widget 'a'"),
        ("aivi: {token_env: A}\nwidgets:\n  - slug: a\n    actions: []\n", 4, 14, "'actions' in widget 'a' must list at least one action"),
        ("aivi: {token_env: A}\nwidgets:\n  - actions: [{id: x, label: X, publish: {topic: t}}]\n", 3, 5, "missing required key 'slug' in widget #1"),
    ])
    func reportsSettingsErrors(yaml: String, line: Int, column: Int, message: String) {
        let result = ConfigLoader.load(text: yaml, fileName: "bridge.yaml")
        #expect(result.config == nil)
        let matching = result.errors.first { $0.message.contains(message) }
        #expect(matching?.location == SourceLocation(line: line, column: column), "\(result.rendered())")
    }

    @Test func retainedCommandIsAWarningOnly() throws {
        let (action, result) = ConfigFixture.loadAction("id: a\nlabel: A\npublish: {topic: t, payload: x, retain: true}")
        #expect(action?.publishes.first?.retain == true)
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.rendered().hasPrefix("bridge.yaml:8:49: warning: 'retain: true'") == true, "\(result.rendered())")
    }

    @Test func scalarsUsedAsTextKeepTheirSpelling() throws {
        let (loaded, result) = ConfigFixture.loadAction(
            "id: 7\nlabel: 1.50\nkind: toggle\nstate_topic: s\non_value: 1\noff_value: 0\ncommand_topic: c\npayload_on: true\n"
            + "availability_topic: a\navailable_value: true\nunavailable_value: false")
        let action = try #require(loaded, "\(result.rendered())")
        #expect(action.id == "7")
        #expect(action.label == "1.50")
        #expect(action.stateSources.first?.onValue == "1")
        #expect(action.command?.payloadOn == "true")
        #expect(action.availability?.availableValue == "true")
        #expect(action.availability?.unavailableValue == "false")
    }

    @Test(arguments: [("comand_topic", "command_topic"), ("stat_topic", "state_topic"), ("lable", "label"), ("zigbe2mqtt", "zigbee2mqtt")])
    func suggestsTheNearestKey(typo: String, expected: String) {
        #expect(EditDistance.suggestion(for: typo, among: ConfigKeys.action) == expected)
    }

    @Test func suggestsNothingForUnrelatedKeys() {
        #expect(EditDistance.suggestion(for: "brightness", among: ConfigKeys.action) == nil)
    }
}
