/// The soak's bridge config: `widgetCount` widgets of 12 actions each (two
/// toggles of each of the five presets, a scene button, and a feeder button
/// marked `repeat_safe: false`), with timings compressed like the schedule.
enum SoakConfig {
    static let tokenVariable = "BRIDGE_SOAK_TOKEN"
    static let widgetCount = 5

    static func slug(_ widget: Int) -> String { "soak-w\(widget)" }

    static var slugs: [String] { (0..<widgetCount).map(slug) }

    /// Every action, in config order (index = position).
    static let actions: [SoakAction] = {
        var actions: [SoakAction] = []
        for widget in 0..<widgetCount {
            var kinds: [SoakAction.Kind] = []
            for preset in SoakPreset.allCases { kinds += [.toggle(preset), .toggle(preset)] }
            kinds += [.button(repeatSafe: true), .button(repeatSafe: false)]
            for kind in kinds {
                let index = actions.count
                actions.append(SoakAction(index: index, slug: slug(widget), id: "a\(index)", kind: kind, device: "soak\(index)"))
            }
        }
        return actions
    }()

    /// What a reload writes: `variant` 0 is the base; others change labels;
    /// `isBroken` writes a config `check` refuses (the bridge must keep the old one).
    static func yaml(brokerPort: Int, apiBaseURL: String, stateDirectory: String, variant: Int, isBroken: Bool) -> String {
        var lines = BenchConfig.head(
            apiBaseURL: apiBaseURL, tokenVariable: tokenVariable, brokerPort: isBroken && variant % 2 == 0 ? "seventeen" : "\(brokerPort)",
            clientId: "bridge-soak-bridge", mqttKeys: ["status_topic: soak/bridge/status"], stateDirectory: stateDirectory,
            timing: ["confirm_timeout_ms: 3000", "settle_window_ms: 500", "publish_retry_initial_ms: 200", "publish_retry_cap_ms: 4000",
                     "stream_dead_after_ms: 6000", "stop_grace_ms: 2000"]
        ) + ["widgets:"]
        for widget in 0..<widgetCount {
            lines.append("  - slug: \(slug(widget))")
            lines.append("    actions:")
            let suffix = variant % 3 == 0 ? "" : " (v\(variant))"
            for action in actions where action.slug == slug(widget) { lines += action.yaml(labelSuffix: suffix) }
        }
        if isBroken && variant % 2 == 1 { lines.append("      - id: a0\n        label: a duplicate id") }
        return lines.joined(separator: "\n") + "\n"
    }
}
