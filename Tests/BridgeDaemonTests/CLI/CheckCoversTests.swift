import BridgeCore
@testable import BridgeDaemon
import Testing

/// Issue 20 section 4: `check` says which lock tiles are lock-only, and what a
/// cover or pulsed door does.
@Suite("check: covers, locks and pulsed doors")
struct CheckCoversTests {
    static let config = """
    aivi:
      token_env: T
    widgets:
      - slug: home
        actions:
          - id: front
            label: Front door
            esphome_lock: hall/front
          - id: side
            label: Side door
            zigbee2mqtt_lock: side
            allow_unlock: true
          - id: garage
            label: Garage
            pulse: {topic: cmnd/garage/POWER, payload: "ON"}
            state_topic: zigbee2mqtt/garage_contact
            state_field: contact
            on_value: "false"
            off_value: "true"
          - id: blinds
            label: Blinds
            tasmota_shutter: blinds
    """

    @Test func theSummarySaysWhichLocksAreLockOnly() throws {
        let config = try #require(ConfigLoader.load(text: Self.config, fileName: "bridge.yaml").config)
        let summary = CheckCommand.summary(config).joined(separator: "\n")
        #expect(summary.contains("  front: toggle (esphome_lock) 'Front door'\n    device       lock, travel time 10000 ms, lock-only: an unlock press sends nothing (add 'allow_unlock: true' to let it unlock)"), "\(summary)")
        #expect(summary.contains("device       lock, travel time 10000 ms, may unlock (allow_unlock: true)"))
        #expect(summary.contains("pulse        cmnd/garage/POWER payload=ON (QoS 0, only when the sensor differs, at most once per travel time)"), "\(summary)")
        #expect(summary.contains("command      cmnd/blinds/ShutterOpen1 on= off= (off to cmnd/blinds/ShutterClose1)"))
        #expect(summary.contains("state        stat/blinds/RESULT [Shutter1.Direction] moving_up=1 moving_down=-1 motion_stopped=0"), "\(summary)")
    }
}
