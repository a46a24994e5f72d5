/// Writes the config file for what discovery found, in the project's YAML: the
/// broker, the token file, one widget with one toggle per switchable thing (a
/// preset where one fits), optional extras commented out, and what was skipped.
public enum DiscoveredConfigWriter {
    /// More tiles than this and a Switchboard gets crowded; all are still written.
    public static let comfortableTileCount = 8

    public static func text(_ result: DiscoveryResult, options: DiscoveryOptions) -> String {
        let base = zigbee2mqttBase(result, default: options.mqtt.zigbee2mqttBaseTopic)
        var lines = header(result, options: options)
        lines += settingsLines(options, zigbee2mqttBase: base)
        var ids = ActionIdMaker()
        let named = result.toggles.map { (toggle: $0, id: ids.make(from: $0.idHint)) }
        let split = widgetSplit(named, options: options)
        lines.append("widgets:")
        lines += split.note
        for (slug, range) in split.widgets {
            lines.append("  - slug: \(YAMLScalarWriter.scalar(slug))")
            if range.count > comfortableTileCount {
                lines.append("    # \(range.count) actions: more than a Switchboard shows well (about \(comfortableTileCount));")
                lines.append("    # all are kept: remove the ones you do not need, or move some to a second widget.")
            }
            lines.append("    actions:")
            for index in range {
                if index > range.lowerBound { lines.append("") }
                lines += action(named[index].toggle, id: named[index].id, base: base).map { "      " + $0 }
            }
            lines += allOffScene(named[range], ids: &ids)
        }
        lines += extrasBlock(result.extras, ids: &ids, base: base)
        lines += skippedBlock(result.skipped)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The zigbee2mqtt base most toggles use (ties: the first by name), so most get the preset.
    static func zigbee2mqttBase(_ result: DiscoveryResult, default fallback: String) -> String {
        let bases = result.heard.zigbee2mqttBases
        guard !bases.isEmpty else { return fallback }
        // Each toggle's topic is read once, level by level: 9,000 bases cost linear time.
        var counts = Dictionary(uniqueKeysWithValues: bases.map { ($0, 0) })
        for toggle in result.toggles {
            let topic = toggle.wiring.command.topic
            for slash in topic.indices where topic[slash] == "/" {
                let prefix = String(topic[..<slash])
                if counts[prefix] != nil { counts[prefix, default: 0] += 1 }
            }
        }
        return counts.min { ($1.value, $0.key) < ($0.value, $1.key) }?.key ?? fallback
    }

    /// Most zigbee2mqtt bases named in the header (a house has one or two).
    static let maxBasesListed = 10

    private static func header(_ result: DiscoveryResult, options: DiscoveryOptions) -> [String] {
        var lines = [
            "# switchboard-bridge config, written by `switchboard-bridge discover` from what the",
            "# broker at \(YAMLScalarWriter.comment(options.mqtt.host)):\(options.mqtt.port) announced in \(options.listenSeconds) s:",
        ]
        let bases = result.heard.zigbee2mqttBases.sorted()
        for base in bases.prefix(maxBasesListed) {
            lines.append("#   zigbee2mqtt at base topic '\(YAMLScalarWriter.comment(base))'")
        }
        if bases.count > maxBasesListed { lines.append("#   ... and \(bases.count - maxBasesListed) more zigbee2mqtt base topics") }
        if result.heard.tasmota > 0 { lines.append("#   Tasmota discovery: \(result.heard.tasmota) device(s)") }
        if !result.heard.shelly.isEmpty { lines.append("#   Shelly: \(result.heard.shelly.count) device(s)") }
        if result.heard.homeAssistant > 0 {
            lines.append("#   Home Assistant discovery under '\(YAMLScalarWriter.comment(options.homeAssistantPrefix))': \(result.heard.homeAssistant) announcement(s)")
        }
        if result.droppedMessages > 0 { lines.append("#   (\(result.droppedMessages) message(s) over the size bounds were ignored)") }
        lines += [
            "# \(result.toggles.count) action(s). Check the file with:",
            "#   switchboard-bridge check --config \(YAMLScalarWriter.comment(options.outputPath ?? "THIS_FILE"))",
            "",
        ]
        return lines
    }

    /// The `aivi:`, `mqtt:` and `state_dir:` sections: everything the options decide.
    static func settingsLines(_ options: DiscoveryOptions, zigbee2mqttBase: String) -> [String] {
        var lines = aiviSection(options) + mqttSection(options, zigbee2mqttBase: zigbee2mqttBase)
        if let directory = options.stateDirectory {
            lines += ["state_dir: \(YAMLScalarWriter.scalar(directory))", ""]
        }
        return lines + statusSection
    }

    /// The status page, on as the package's starting config has it, on this board only
    /// (issue 41: the best diagnostic over ssh was off, with nothing saying how to turn it on).
    static let statusSection: [String] = {
        let listen = StatusSettings().listen
        let port = listen.split(separator: ":").last.map(String.init) ?? ""
        return [
            "# The status page: each tile as the phone shows it, and why. On this board only (it has no",
            "# password); from your computer: ssh -N -L \(port):127.0.0.1:\(port) THIS-BOARD, then open http://127.0.0.1:\(port)/",
            "status:",
            "  listen: \(listen)",
            "",
        ]
    }()

    /// How many widgets the file shares its actions among (one unless their content is too large for one).
    public static func widgetCount(_ result: DiscoveryResult, options: DiscoveryOptions) -> Int {
        var ids = ActionIdMaker()
        return widgetSplit(result.toggles.map { (toggle: $0, id: ids.make(from: $0.idHint)) }, options: options).widgets.count
    }

    static func widgetSplit(_ named: [(toggle: DiscoveredToggle, id: String)], options: DiscoveryOptions) -> DiscoveredWidgetSplit {
        DiscoveredWidgetSplit(slug: options.widgetSlug, actions: named.map { shownAction($0.toggle, id: $0.id) })
    }

    /// What the tile of `toggle` shows: what its share of the widget's content is made of.
    static func shownAction(_ toggle: DiscoveredToggle, id: String) -> ActionConfig {
        ActionConfig(id: id, label: shortLabel(toggle.label), icon: toggle.kind.icon, kind: .toggle)
    }

    private static func aiviSection(_ options: DiscoveryOptions) -> [String] {
        var lines = ["aivi:"]
        if let api = options.apiURL { lines.append("  api: \(YAMLScalarWriter.scalar(api))") }
        let file = options.tokenFile
        lines += [
            "  # The Aivi API token is read from this file. Create it, readable by root only:",
            "  #   sudo bash -c 'umask 077; read -rsp \"Aivi API token: \" t; echo; printf \"%s\\n\" \"$t\" > \(YAMLScalarWriter.comment(file))'",
            "  token_file: \(YAMLScalarWriter.scalar(file))",
            "",
        ]
        return lines
    }

    private static func mqttSection(_ options: DiscoveryOptions, zigbee2mqttBase: String) -> [String] {
        let mqtt = options.mqtt
        var lines = ["mqtt:", "  host: \(YAMLScalarWriter.scalar(mqtt.host))", "  port: \(mqtt.port)"]
        if let username = mqtt.username { lines.append("  username: \(YAMLScalarWriter.scalar(username))") }
        if let file = mqtt.passwordFile { lines.append("  password_file: \(YAMLScalarWriter.scalar(file))") }
        if let tls = mqtt.tls {
            var keys = tls.caFile.map { ["ca_file: \(YAMLScalarWriter.quoted($0))"] } ?? []
            if tls.insecure { keys.append("insecure: true") }
            lines.append(keys.isEmpty ? "  tls: true" : "  tls: { \(keys.joined(separator: ", ")) }")
        }
        if mqtt.protocolVersion == .v5 { lines.append("  protocol: 5") }
        if zigbee2mqttBase != "zigbee2mqtt" { lines.append("  zigbee2mqtt_base_topic: \(YAMLScalarWriter.scalar(zigbee2mqttBase))") }
        return lines + [""]
    }

    /// The longest label written, in characters and in UTF-8 bytes (a character can be
    /// one letter and thousands of combining marks): a device can announce a name of
    /// megabytes, and a widget's content has a size limit the service enforces.
    static let maxLabelCharacters = 64
    static let maxLabelBytes = 256

    /// `label` cut to `maxLabelCharacters` and `maxLabelBytes`, with "…" where it was cut.
    static func shortLabel(_ label: String) -> String {
        guard label.count > maxLabelCharacters || label.utf8.count > maxLabelBytes else { return label }
        var short = ""
        var bytes = "…".utf8.count
        for character in label.prefix(maxLabelCharacters - 1) {
            bytes += character.utf8.count
            guard bytes <= maxLabelBytes else { break }
            short.append(character)
        }
        return short + "…"
    }

    /// One action: a comment naming its origin, then its keys.
    static func action(_ toggle: DiscoveredToggle, id: String, base: String) -> [String] {
        var lines = [
            "# \(YAMLScalarWriter.comment(toggle.origin))",
            "- id: \(YAMLScalarWriter.scalar(id))",
            "  label: \(YAMLScalarWriter.scalar(shortLabel(toggle.label)))",
            "  icon: \(toggle.kind.icon)",
            "  kind: toggle",
        ]
        if let choice = PresetMatcher.preset(for: toggle, zigbee2mqttBase: base) {
            lines.append("  \(choice.preset.rawValue): \(YAMLScalarWriter.scalar(choice.name))")
            if let channel = choice.channel {
                // A relay number is a YAML integer; a zigbee2mqtt endpoint is a name.
                let isNumber = !choice.preset.isZigbee2MQTT && Int(channel) != nil
                lines.append("  channel: \(isNumber ? channel : YAMLScalarWriter.scalar(channel))")
            }
            if let fullTopic = choice.fullTopic { lines.append("  full_topic: \(YAMLScalarWriter.scalar(fullTopic))") }
            if let values = choice.stateValues {
                lines += ["  on_value: \(YAMLScalarWriter.scalar(values.on))", "  off_value: \(YAMLScalarWriter.scalar(values.off))"]
            }
        } else {
            lines += explicitKeys(toggle.wiring).map { "  " + $0 }
        }
        if toggle.wiring.device == .cover, toggle.wiring.stateSources.contains(where: \.isInverted) {
            let why = toggle.source == .tasmota ? "Tasmota announces ShutterInvert 1 (`sho` bit 0)" : "announced position_closed 100, position_open 0"
            lines.append("  invert_position: true   # \(why): 100 is closed, 0 fully open")
        }
        if toggle.wiring.device == .lock {
            // Issue 20: unlocking is opt-in; every phone the widget is shared with could press it.
            lines.append("  # allow_unlock: true   # without it this tile only locks (anyone the widget is shared with could unlock)")
        }
        return lines
    }

    private static func explicitKeys(_ wiring: ToggleWiring) -> [String] {
        let s = YAMLScalarWriter.scalar
        var lines: [String] = wiring.device == .plainSwitch ? [] : ["device: \(wiring.device.rawValue)"]
        if let state = wiring.device == .plainSwitch ? wiring.stateSources.first : wiring.wordSource {
            lines.append("state_topic: \(s(state.topic))")
            if let field = state.field { lines.append("state_field: \(s(field.joined(separator: ".")))") }
            lines += ["on_value: \(s(state.onValue))", "off_value: \(s(state.offValue))"]
            lines += wordKeys(state, device: wiring.device)
        }
        if wiring.device == .cover, let position = wiring.stateSources.first(where: \.isPosition) {
            lines.append("position_topic: \(s(position.topic))")
            if let field = position.field { lines.append("position_field: \(s(field.joined(separator: ".")))") }
        }
        lines += [
            "command_topic: \(s(wiring.command.topic))",
            "payload_on: \(s(wiring.command.payloadOn))",
            "payload_off: \(s(wiring.command.payloadOff))",
        ]
        if let availability = wiring.availability, let also = wiring.alsoAvailability {
            lines.append("availability_topic: [\(YAMLScalarWriter.quoted(availability.topic)), \(YAMLScalarWriter.quoted(also.topic))]   # both must say online")
            if let field = availability.field { lines.append("availability_field: \(s(field.joined(separator: ".")))") }
            lines.append("available_value: \(s(availability.availableValue))")
            if let unavailable = availability.unavailableValue { lines.append("unavailable_value: \(s(unavailable))") }
        } else if let availability = wiring.availability {
            lines.append("availability_topic: \(s(availability.topic))")
            if let field = availability.field { lines.append("availability_field: \(s(field.joined(separator: ".")))") }
            lines.append("available_value: \(s(availability.availableValue))")
            if let unavailable = availability.unavailableValue { lines.append("unavailable_value: \(s(unavailable))") }
        }
        if wiring.optimistic || wiring.stateSources.isEmpty { lines.append("optimistic: true") }
        return lines
    }

    /// A cover's or lock's further words where the announcement's differ from the config's defaults.
    private static func wordKeys(_ source: StateSource, device: TileDevice) -> [String] {
        ConfigDecoder.wordKeys.filter { $0.device == device }.compactMap { key in
            guard let meaning = source.meanings.first(where: { $0.reading == key.reading }), meaning.value != key.word else { return nil }
            return "\(key.key): \(YAMLScalarWriter.scalar(meaning.value))"
        }
    }

    private static func extrasBlock(_ extras: [DiscoveredToggle], ids: inout ActionIdMaker, base: String) -> [String] {
        guard !extras.isEmpty else { return [] }
        var lines = ["", "      # Optional extras (zigbee2mqtt groups): to use one, remove the '#' in front of its lines."]
        for toggle in extras {
            lines.append("")
            lines += action(toggle, id: ids.make(from: toggle.idHint), base: base).map { line in
                line.hasPrefix("#") ? "      " + line : "      #" + line
            }
        }
        return lines
    }

    /// The icon of the commented `all_off` scene.
    static let allOffSceneIcon = "power"

    /// A commented `all_off` scene of the widget's tiles that report their state
    /// (an optimistic one cannot be read back, so `check` refuses it in a scene).
    /// A lock is set on (locked): discover writes locks lock-only, so `off`
    /// would be refused, and "All off" must never read as "unlock the door".
    static func allOffScene(_ named: ArraySlice<(toggle: DiscoveredToggle, id: String)>, ids: inout ActionIdMaker) -> [String] {
        let targets = named.filter { !$0.toggle.wiring.optimistic && !$0.toggle.wiring.stateSources.isEmpty }
        guard !targets.isEmpty else { return [] }
        let lines = [
            "", "# A scene of this widget's tiles, as a start: remove the '#' in front of its lines to use it.",
            "# A press turns off each tile that is on (closes covers, locks locks); the tile is active while all are so.",
            "#- id: \(YAMLScalarWriter.scalar(ids.make(from: "all_off")))", "#  label: All off", "#  icon: \(allOffSceneIcon)", "#  sets:",
        ] + targets.map { target in
            target.toggle.wiring.device == .lock
                ? "#    \(YAMLScalarWriter.scalar(target.id)): on      # locked"
                : "#    \(YAMLScalarWriter.scalar(target.id)): off"
        }
        return lines.map { $0.isEmpty ? $0 : "      " + $0 }
    }

    private static func skippedBlock(_ skipped: [SkippedThing]) -> [String] {
        guard !skipped.isEmpty else { return [] }
        return ["", "# Announced but not made into actions:"] + skipped.listed(prefix: "#   ")
    }
}
