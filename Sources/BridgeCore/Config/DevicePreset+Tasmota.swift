/// Tasmota: `POWER`/`POWERn` raw or JSON (SetOption4), `RESULT`, telemetry
/// `STATE`, under the device's FullTopic.
extension DevicePreset {
    /// Tasmota's factory FullTopic.
    public static let defaultTasmotaFullTopic = "%prefix%/%topic%/"

    static func tasmota(topic: String, channel: Channel, fullTopic: String) -> Expansion {
        let relay = if case .index(let relay) = channel { relay } else { Int64(0) }
        // Relay 1 reports as POWER, or as POWER1 on multi-relay devices and with SetOption26.
        let keys = relay <= 1 ? ["POWER", "POWER1"] : ["POWER\(relay)"]
        let command = relay == 0 ? "POWER" : "POWER\(relay)"
        func path(_ prefix: String, _ last: String) -> String { tasmotaTopic(fullTopic, prefix: prefix, topic: topic) + last }
        var sources = keys.map { StateSource(topic: path("stat", $0), field: [$0], onValue: "ON", offValue: "OFF") }
        sources += keys.map { StateSource(topic: path("stat", "RESULT"), field: [$0], onValue: "ON", offValue: "OFF") }
        sources += keys.map { StateSource(topic: path("tele", "STATE"), field: [$0], onValue: "ON", offValue: "OFF") }
        return Expansion(
            stateSources: sources,
            command: ToggleCommand(topic: path("cmnd", command), payloadOn: "ON", payloadOff: "OFF"),
            availability: AvailabilitySource(topic: path("tele", "LWT"), field: nil, availableValue: "Online", unavailableValue: "Offline"),
            stateQuery: MQTTMessageSpec(topic: path("cmnd", command), payload: "", qos: 1, retain: false)
        )
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
