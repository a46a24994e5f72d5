/// What `check` would refuse in the sections `discover`'s options write (`aivi:`,
/// `mqtt:`, `state_dir:`), found before listening or writing anything: the
/// sections are loaded by the config's own rules beside a placeholder widget, and
/// each error is said with the option that set the value (`--token-file ''`,
/// `--state-dir ''`, `--api 'not a url'` were written, and `check` refused the file).
public enum DiscoveredSettingsCheck {
    /// The option that sets each key `discover` writes.
    static let optionForKey = [
        "api": "--api", "token_file": "--token-file", "state_dir": "--state-dir", "host": "--mqtt-host", "port": "--port",
        "username": "--username", "password_file": "--password-file", "tls": "--tls/--tls-ca-file",
        "zigbee2mqtt_base_topic": "--config",
    ]

    /// One line per problem, naming the option and saying check's reason; empty when none.
    public static func problems(_ options: DiscoveryOptions) -> [String] {
        let settings = DiscoveredConfigWriter.settingsLines(options, zigbee2mqttBase: options.mqtt.zigbee2mqttBaseTopic)
        let placeholder = [
            "widgets:", "  - slug: placeholder", "    actions:",
            "      - id: placeholder", "        label: Placeholder", "        kind: toggle",
            "        optimistic: true", "        command_topic: placeholder/set",
        ]
        let loaded = ConfigLoader.load(text: (settings + placeholder).joined(separator: "\n") + "\n", fileName: "discover")
        return loaded.errors.map { error in
            let line = error.location.line - 1
            let key = settings.indices.contains(line) ? settings[line].drop { $0 == " " }.prefix { $0 != ":" } : ""
            let option = optionForKey[String(key)] ?? "an option"
            return "discover: \(option): \(DisplayText.escapingControls(error.message)) (check would refuse the config)"
        }
    }
}
