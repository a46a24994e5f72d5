/// A test config's head (aivi, mqtt, state_dir, timing) kept, its widgets replaced
/// by one widget of the test's own actions; and the retained states those devices
/// start in. For end-to-end tests of presets, covers and topics.
public enum WidgetActionsConfig {
    /// Preset actions: `  - id: ID`, `    label: ID`, then the preset's lines (its
    /// further lines indented by four, as the action's keys).
    public static func presetActions(_ presets: [(id: String, yaml: String)]) -> String {
        presets.map { "  - id: \($0.id)\n    label: \($0.id)\n    \($0.yaml)" }.joined(separator: "\n")
    }

    /// `config` up to its `widgets:`, then one widget `slug` holding `actions` (YAML,
    /// each `- id:` at column 2).
    public static func replacingWidgets(of config: String, slug: String, actions: String) -> String {
        let head = config.components(separatedBy: "\nwidgets:")[0]
        return head + "\nwidgets:\n  - slug: \(slug)\n    actions:\n"
            + actions.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n"
    }

    /// Publishes each (topic, payload) retained on the broker at `port`, in order.
    public static func publishRetained(_ states: [(String, String)], port: Int, directory: TemporaryDirectory) throws {
        for (topic, payload) in states {
            try MosquittoCLI.publish(port: port, topic: topic, payload: payload, retain: true, directory: directory)
        }
    }
}
