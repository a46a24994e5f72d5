/// What makes a topic usable by the bridge. The bridge matches topics
/// exactly and publishes to them, so wildcards are refused everywhere.
public enum MQTTTopicRules {
    /// The MQTT limit on a topic's UTF-8 length.
    public static let maxTopicBytes = 65_535

    /// Why `topic` cannot be used, or nil when it can.
    public static func problem(with topic: String) -> String? {
        if topic.isEmpty { return "must not be empty" }
        if topic.unicodeScalars.contains("+") || topic.unicodeScalars.contains("#") {
            return "must not contain the MQTT wildcards '+' or '#': the bridge matches and publishes topics exactly"
        }
        if topic.unicodeScalars.contains("\u{0}") { return "must not contain a NUL character" }
        if topic.utf8.count > maxTopicBytes { return "is longer than MQTT's \(maxTopicBytes) bytes" }
        return nil
    }
}
