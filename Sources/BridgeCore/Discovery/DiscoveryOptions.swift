/// What shapes a discovery: where Home Assistant announces, and what the written
/// config says besides the actions.
public struct DiscoveryOptions: Sendable, Equatable {
    /// The Home Assistant discovery prefix.
    public var homeAssistantPrefix: String = "homeassistant"
    /// The widget's slug.
    public var widgetSlug: String = "home"
    /// The broker the config connects to (written as `mqtt:`).
    public var mqtt: MQTTSettings = MQTTSettings()
    /// The token file the config names.
    public var tokenFile: String = "/etc/switchboard-bridge/aivi-token"
    /// The Aivi API base, written when not the default.
    public var apiURL: String?
    /// `state_dir`, written when given.
    public var stateDirectory: String?
    /// How long the broker was listened to, for the header comment.
    public var listenSeconds: Int = 5
    /// Where the file is written, for the `check` line of the header (nil: stdout).
    public var outputPath: String?

    public init() {}
}

extension DiscoveryOptions {
    /// Why `slug` cannot be a widget's slug, or nil.
    public static func slugProblem(_ slug: String) -> String? {
        guard !slug.isEmpty, ConfigDecoder.isValidSlug(slug) else {
            return "'\(slug)' is not a widget slug: use letters, digits, '-', '_' and '.'"
        }
        return nil
    }

    /// What to tell a homeowner when nothing was announced: what was listened to and
    /// how to turn discovery on in each firmware.
    public func nothingHeardMessage(host: String, port: Int) -> String {
        """
        discover: nothing was announced on \(host):\(port) in \(listenSeconds) s.
        Listened to: <base>/bridge/devices (zigbee2mqtt), tasmota/discovery/+/config (Tasmota),
        \(homeAssistantPrefix)/+/[+/]+/config (Home Assistant discovery, ESPHome), and the answers
        to 'announce' and 'update' on shellies/command (Shelly).
        To turn announcements on:
          zigbee2mqtt: on by default (retained bridge/devices); check the broker and base topic.
          Tasmota: run the console command 'SetOption19 0' (Tasmota discovery, the default since 9.2).
          ESPHome: 'mqtt:' with 'discovery: true' (the default) and 'discovery_retain: true'.
          Shelly gen1: enable MQTT in Internet & Security; gen2+: enable MQTT with 'RPC over MQTT'
          (both on their factory topic prefix, the device id, are found as they are); with a
          prefix of your own, also 'Generic status update over MQTT' or the announce script.
        Then run discover again, or with a longer --seconds.
        """
    }
}
