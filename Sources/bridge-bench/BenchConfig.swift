/// The bridge config the bench generates: `toggleCount` custom toggles in
/// `widgetCount` widgets, state on `bench/dN/state` (raw ON/OFF), command on `bench/dN/set`.
enum BenchConfig {
    static let tokenVariable = "BRIDGE_BENCH_TOKEN"

    static func stateTopic(_ toggle: Int) -> String { "bench/d\(toggle)/state" }
    static func commandTopic(_ toggle: Int) -> String { "bench/d\(toggle)/set" }
    static func actionId(_ toggle: Int) -> String { "d\(toggle)" }
    /// The `repeat_safe: false` button of a widget (`UnsafePressScenario` only) and its topic.
    static func unsafeButtonId(widget: Int) -> String { "feeder\(widget)" }
    static func unsafeCommandTopic(widget: Int) -> String { "bench/feeder\(widget)/set" }

    /// The pulsed garage door of the first widget (`StallScenario`'s stopped broker): a relay
    /// pulsed on `doorPulseTopic`, a sensor saying `open`/`closed` on `doorStateTopic`.
    static let doorId = "door"
    static let doorPulseTopic = "bench/door/set"
    static let doorStateTopic = "bench/door/state"
    static let doorTravelTimeMs = 8_000

    /// The widget whose unsafe button publishes on `topic`, nil for any other topic.
    static func widget(ofUnsafeCommandTopic topic: String) -> Int? {
        guard topic.hasPrefix("bench/feeder"), topic.hasSuffix("/set") else { return nil }
        return Int(topic.dropFirst("bench/feeder".count).dropLast("/set".count))
    }

    /// The toggle a command topic belongs to, nil for any other topic.
    static func toggle(ofCommandTopic topic: String) -> Int? {
        guard topic.hasPrefix("bench/d"), topic.hasSuffix("/set") else { return nil }
        return Int(topic.dropFirst("bench/d".count).dropLast("/set".count))
    }

    /// The head of every config the bench writes (this one and `SoakConfig`'s): the simulator's
    /// API with the token in `tokenVariable`, the private broker on 127.0.0.1 at `brokerPort` (a
    /// word: the soak's broken reload writes one) with `mqttKeys` after its client id, the state
    /// directory, and the `timing:` keys.
    static func head(apiBaseURL: String, tokenVariable: String, brokerPort: String, clientId: String, mqttKeys: [String] = [],
                     stateDirectory: String, timing: [String]) -> [String] {
        ["aivi:", "  api: \(apiBaseURL)", "  token_env: \(tokenVariable)",
         "mqtt:", "  host: 127.0.0.1", "  port: \(brokerPort)", "  client_id: \(clientId)"]
            + mqttKeys.map { "  " + $0 }
            + ["state_dir: \(stateDirectory)", "timing:"] + timing.map { "  " + $0 }
    }

    /// `hasUnsafeButtons` adds one `repeat_safe: false` button to each widget (after its toggles);
    /// `statusPort` turns the status listener on, on 127.0.0.1; `hasPulsedDoor` adds the door to the first widget.
    static func yaml(sizes: BenchSizes, brokerPort: Int, apiBaseURL: String, stateDirectory: String,
                     hasUnsafeButtons: Bool = false, statusPort: Int? = nil, hasPulsedDoor: Bool = false) -> String {
        var lines = head(apiBaseURL: apiBaseURL, tokenVariable: tokenVariable, brokerPort: "\(brokerPort)", clientId: "bridge-bench-bridge",
                         stateDirectory: stateDirectory, timing: ["min_publish_interval_ms: \(sizes.minPublishIntervalMs)"])
        if let statusPort { lines += ["status:", "  listen: 127.0.0.1:\(statusPort)"] }
        lines.append("widgets:")
        for widget in 0..<sizes.widgetCount {
            lines.append("  - slug: \(sizes.slug(ofWidget: widget))")
            lines.append("    actions:")
            for toggle in widget * sizes.togglesPerWidget..<(widget + 1) * sizes.togglesPerWidget {
                lines += [
                    "      - id: \(actionId(toggle))",
                    "        label: Device \(toggle)",
                    "        kind: toggle",
                    "        state_topic: \(stateTopic(toggle))",
                    "        command_topic: \(commandTopic(toggle))",
                ]
            }
            if hasPulsedDoor, widget == 0 {
                lines += [
                    "      - id: \(doorId)",
                    "        label: Garage door",
                    "        pulse: { topic: \(doorPulseTopic), payload: \"on\" }",
                    "        state_topic: \(doorStateTopic)",
                    "        on_value: open",
                    "        off_value: closed",
                    "        travel_time_ms: \(doorTravelTimeMs)",
                ]
            }
            if hasUnsafeButtons {
                lines += [
                    "      - id: \(unsafeButtonId(widget: widget))",
                    "        label: Feeder \(widget)",
                    "        repeat_safe: false",
                    "        publish: { topic: \(unsafeCommandTopic(widget: widget)), payload: go }",
                ]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
