/// Tasmota: `POWER`/`POWERn` raw or JSON (SetOption4), `RESULT`, telemetry
/// `STATE`, under the device's FullTopic.
extension DevicePreset {
    /// Tasmota's factory FullTopic.
    public static let defaultTasmotaFullTopic = "%prefix%/%topic%/"

    /// The state query is `State`, the device's whole state in one answer (every relay's
    /// `POWER`/`POWERn`, a light's too) on stat/T/RESULT, or stat/T/STATE with SetOption4,
    /// so the relays of one device ask once (Tasmota `support_command.ino`, CmndState →
    /// MqttShowState); an empty `POWERn` asked one relay each.
    static func tasmota(topic: String, channel: Channel, fullTopic: String) -> Expansion {
        let relay = if case .index(let relay) = channel { relay } else { Int64(0) }
        // Relay 1 reports as POWER, or as POWER1 on multi-relay devices and with SetOption26.
        let keys = relay <= 1 ? ["POWER", "POWER1"] : ["POWER\(relay)"]
        let command = relay == 0 ? "POWER" : "POWER\(relay)"
        func path(_ prefix: String, _ last: String) -> String { tasmotaTopic(fullTopic, prefix: prefix, topic: topic) + last }
        func source(_ topic: String, _ key: String) -> StateSource {
            StateSource(topic: topic, field: [key], onValue: "ON", offValue: "OFF", meanings: tasmotaBlinkMeanings)
        }
        var sources = keys.map { source(path("stat", $0), $0) }
        // The answer to `State` goes to stat/.../STATE with SetOption4 (else RESULT), the periodic one to tele/.../STATE.
        for (prefix, last) in [("stat", "RESULT"), ("tele", "STATE"), ("stat", "STATE")] {
            sources += keys.map { source(path(prefix, last), $0) }
        }
        return Expansion(
            stateSources: sources,
            command: ToggleCommand(topic: path("cmnd", command), payloadOn: "ON", payloadOff: "OFF"),
            availability: AvailabilitySource(topic: path("tele", "LWT"), field: nil, availableValue: "Online", unavailableValue: "Offline"),
            stateQuery: MQTTMessageSpec(topic: path("cmnd", "State"), payload: "", qos: 1, retain: false)
        )
    }

    /// `{"POWER":"Blink ON"}` / `"Blink OFF"`: a blink of the relay started or ended (the
    /// text after "Blink" is whether it blinks, not the relay's state; at the end Tasmota
    /// puts the relay back as it was). Source: Tasmota `tasmota/xdrv_02_9_mqtt.ino`,
    /// MqttPublishPowerBlinkState (`D_JSON_BLINK " %s"` with GetStateText of the blink bit).
    static let tasmotaBlinkMeanings = [StateMeaning("Blink ON", .blinking), StateMeaning("Blink OFF", .blinking)]

    /// Why a `tasmota:` name cannot be the device's Topic, or nil: its `%topic%` is one
    /// level without spaces (Tasmota's MakeValidMqtt, `xdrv_02_9_mqtt.ino`, turns a space
    /// into '_'), never with a prefix.
    static func tasmotaTopicProblem(_ name: String) -> String? {
        for prefix in ["cmnd/", "stat/", "tele/"] where name.lowercased().hasPrefix(prefix) {
            let rest = String(name.dropFirst(prefix.count)).split(separator: "/").first.map(String.init) ?? ""
            return "names the device's Topic, without '\(prefix)' (the preset adds cmnd/, stat/ and tele/ itself): write '\(rest)'"
        }
        if name.contains(" ") {
            return "must be the device's Topic (Configuration → MQTT → Topic), which has no spaces: Tasmota turns them into '_' "
                + "(write '\(name.replacing(" ", with: "_"))' if that is its Topic; its FriendlyName is not used)"
        }
        return nil
    }

    /// The FullTopic with `%prefix%` and `%topic%` filled in, ending in a slash.
    static func tasmotaTopic(_ fullTopic: String, prefix: String, topic: String) -> String {
        var filled = fullTopic.replacing("%prefix%", with: prefix).replacing("%topic%", with: topic)
        if !filled.hasSuffix("/") { filled += "/" }
        return filled
    }

    /// Why a FullTopic cannot be used, or nil.
    static func tasmotaFullTopicProblem(_ fullTopic: String) -> String? {
        guard fullTopic.contains("%prefix%"), fullTopic.contains("%topic%") else {
            return "must contain both %prefix% and %topic%, as Tasmota's FullTopic does (default '\(defaultTasmotaFullTopic)')"
        }
        return nil
    }
}
