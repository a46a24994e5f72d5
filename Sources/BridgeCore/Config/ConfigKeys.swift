/// Every key the config file knows, per section. Unknown keys are errors
/// with a did-you-mean drawn from these lists.
public enum ConfigKeys {
    public static let topLevel = ["aivi", "mqtt", "state_dir", "status", "timing", "widgets"]
    public static let aivi = ["api", "token_file", "token_env", "events_path", "ca_file"]
    public static let mqtt = [
        "host", "port", "client_id", "username", "password_file", "tls", "status_topic", "protocol",
        "keepalive_s", "zigbee2mqtt_base_topic", "max_payload_bytes",
    ]
    public static let mqttTLS = ["ca_file", "insecure"]
    public static let status = ["listen", "path", "refresh_s"]
    public static let timing = [
        "confirm_timeout_ms", "settle_window_ms", "publish_retry_initial_ms", "publish_retry_cap_ms",
        "permanent_error_retry_ms", "dedupe_margin_ms", "dedupe_capacity", "stream_dead_after_ms", "stop_grace_ms", "button_answer_window_ms",
        "min_publish_interval_ms",
    ]
    public static let widget = ["slug", "actions", "min_publish_interval_ms"]
    /// The keys of each top-level section.
    public static let sectionKeys = ["aivi": aivi, "mqtt": mqtt, "status": status, "timing": timing]
    public static let message = ["topic", "payload", "qos", "retain"]

    /// The device presets, in the order the documentation lists them.
    public static let presets = DevicePreset.allCases.map(\.rawValue)

    /// Template fields the bridge does not interpret: copied verbatim (any
    /// YAML value, as JSON) into the action's content, in file order. Anything
    /// else the template supports goes under `extra:`.
    public static let passthrough = ["subtitle", "gradient", "picture", "picture_alt", "state_words"]

    /// Content fields the bridge writes itself; `extra:` may not set them.
    public static let bridgeOwnedContentFields = ["id", "label", "icon", "color", "kind", "on", "active"]

    /// Keys of an action that only toggles use.
    public static let toggleOnly = [
        "state_topic", "state_field", "on_value", "off_value", "command_topic", "payload_on", "payload_off",
        "availability_topic", "availability_field", "available_value", "unavailable_value", "optimistic",
        "confirm_timeout_ms", "state_query", "channel", "full_topic",
        "device", "travel_time_ms", "allow_unlock", "pulse", "position_topic", "position_field", "invert_position",
        "opening_value", "closing_value", "stopped_value", "locking_value", "unlocking_value", "jammed_value",
        "unlatched_value", "unlatching_value",
    ] + presets

    /// Keys of an action that only buttons use.
    public static let buttonOnly = ["publish", "active_topic", "active_field", "active_value", "sets"]

    /// Keys whose empty value is reported by their own rule (sections, required
    /// keys, `tls`, `repeat_safe`, presets), not by the generic "has no value" warning.
    static let ownNullHandling = Set(["aivi", "mqtt", "status", "timing", "widgets", "actions", "extra", "tls", "repeat_safe",
                                      "id", "label", "slug", "publish", "topic", "sets"] + presets)

    public static let action = ["id", "label", "icon", "color", "kind", "repeat_safe", "extra"]
        + toggleOnly + buttonOnly + passthrough
}
