/// Payloads real firmware publishes, each with where it comes from. Shared by
/// the table tests of the presets and by the end-to-end tests of the binary
/// (a copy of the few those use lives in `Tests/IntegrationTests/EndToEnd`).
enum RealPayloads {
    // MARK: zigbee2mqtt (Koenkk/zigbee2mqtt @ 6835cbf5)

    /// lib/mqtt.ts `connect()`: the will, `JSON.stringify({state: "offline"})`, retained (2.x).
    static let z2mBridgeOffline = #"{"state":"offline"}"#
    /// lib/mqtt.ts `onConnect()`: `{state: "online"}`, retained, QoS 1 (2.x).
    static let z2mBridgeOnline = #"{"state":"online"}"#
    /// 1.x with `advanced.legacy_availability_payload: true`: lib/util/utils.ts
    /// `availabilityPayload()` at tag 1.42.0 returns the bare word; also
    /// docs/information/mqtt_topics_and_message_structure.md ("online"/"offline").
    static let z2mBridgeOfflineLegacy = "offline"
    /// lib/extension/availability.ts `publishAvailability()`: `{state: available ? "online" : "offline"}`.
    static let z2mDeviceOnline = #"{"state":"online"}"#
    /// lib/extension/availability.ts `onEntityRenamed`: `publish(`${data.from}/availability`, "", {retain: true})`;
    /// test/extensions/availability.test.ts:320 expects exactly that.
    static let z2mAvailabilityCleared = ""
    /// test/extensions/groups.test.ts:309, published on `zigbee2mqtt/wall_switch_double`.
    static let z2mWallSwitchDouble = #"{"state_left":"OFF","state_right":"ON"}"#
    /// test/extensions/publish.test.ts:345, published on `zigbee2mqtt/bulb_color`.
    static let z2mBulbColor = #"{"color_mode":"xy","color":{"x":100,"y":50},"state":"ON"}"#
    /// lib/util/settings.schema.json `advanced.output`: "attribute: topic 'zigbee2mqtt/my_bulb/state' payload 'ON'".
    static let z2mAttributeState = "ON"

    // MARK: Tasmota (arendst/Tasmota tasmota/tasmota_xdrv_driver/xdrv_02_9_mqtt.ino, MqttPublishPowerState)

    /// `GetPowerDevice(..., Settings->flag.device_index_enable)` (SetOption26) names relay 1
    /// `POWER1`; `Response_P(S_JSON_COMMAND_SVALUE, scommand, GetStateText(...))` -> `{"POWER1":"ON"}` on RESULT.
    static let tasmotaResultPower1 = #"{"POWER1":"ON"}"#
    /// Same function, the non-JSON publish on `stat/T/POWER1` (unless SetOption90).
    static let tasmotaRawPower1 = "ON"
    /// SetOption4 (`mqtt_response`): the JSON answer goes to `stat/T/POWER` instead of RESULT.
    static let tasmotaSetOption4 = #"{"POWER":"ON"}"#
    /// A captured `tele/tasmota_9CF9D1/STATE` (pastebin.com/4izDrY6W, Tasmota console log, 2024-02-24).
    static let tasmotaTeleState = #"{"Time":"2024-02-24T22:20:38","Uptime":"0T00:10:11","UptimeSec":611,"Heap":24,"SleepMode":"Dynamic","Sleep":50,"LoadAvg":19,"MqttCount":1,"POWER":"OFF","Wifi":{"AP":1,"SSId":"ESP-Network","BSSId":"E6:8D:8C:4B:BE:F7","Channel":3,"Mode":"11n","RSSI":44,"Signal":-78,"LinkCount":1,"Downtime":"0T00:00:05"}}"#
    /// MqttPublishPowerBlinkState, same file: `{"%s":"Blink %s"}` with GetStateText of the blink bit,
    /// on RESULT (or stat/T/POWER with SetOption4), when `Power BLINK` starts (and `Blink OFF` when it ends).
    static let tasmotaBlinkOn = #"{"POWER":"Blink ON"}"#
    /// The answer to the `State` command with SetOption4 on `stat/T/STATE`: the STATE object above.
    static let tasmotaStatState = tasmotaTeleState
    /// A captured `tele/tasmota_28AF0B/LWT` (gist.github.com/grischard/1e3d51fe0c2a1b2cacece8b39db4ec83).
    static let tasmotaLWTOnline = "Online"
    /// The Dimmer answer of a Shelly Dimmer on Tasmota (pastebin.com/FQpudKSb): RESULT without POWER.
    static let tasmotaResultWithoutPower = #"{"Dimmer":10}"#

    // MARK: Shelly gen1

    /// bieniu/ha-shellies-discovery python_scripts/shellies_discovery.py @ 2992b3b:
    /// `TPL_OVERPOWER_RELAY = "{%if value==^overpower^%}ON..."` on `~relay/{relay_id}`.
    static let shellyRelayOverpower = "overpower"
    /// Same script: `VALUE_ON = "on"` / `VALUE_OFF = "off"` on `~relay/{relay_id}`.
    static let shellyRelayOn = "on"
    /// The gen1 light status JSON (wiki.loxberry.de .../shelly_devices_mqtt/shellybulb: "An identical JSON
    /// payload will be published ... on .../color/0/status"), on the `~light/{light_id}/status` topic of
    /// shellies_discovery.py (`TOPIC_LIGHT_STATUS`), read through `value_json.ison`.
    static let shellyLightStatusOn = #"{"ison":true,"mode":"white","brightness":100,"temp":4750,"effect":0}"#

    // MARK: Shelly gen2/gen3

    /// shelly-api-docs.shelly.cloud/gen2/General/Notifications: NotifyStatus on `<id>/events/rpc`,
    /// params carry `ts` and the changed part of the component's status under `switch:<id>`.
    static let shellyPlusNotifySwitchOn =
        #"{"src":"shellyplus1pm-a8032ab12345","dst":"shellyplus1pm-a8032ab12345/events","method":"NotifyStatus","params":{"ts":1700000000.01,"switch:0":{"id":0,"output":true,"source":"button"}}}"#
    /// Same page: a change of another component (only `apower`) carries no `output`.
    static let shellyPlusNotifyPowerOnly =
        #"{"src":"shellyplus1pm-a8032ab12345","dst":"shellyplus1pm-a8032ab12345/events","method":"NotifyStatus","params":{"ts":1700000001.02,"switch:0":{"id":0,"apower":12.5}}}"#
    /// NotifyEvent on the same topic (same page): nothing about the output.
    static let shellyPlusNotifyEvent =
        #"{"src":"shellyplus1pm-a8032ab12345","dst":"shellyplus1pm-a8032ab12345/events","method":"NotifyEvent","params":{"ts":1700000002.03,"events":[{"component":"input:0","id":0,"event":"single_push","ts":1700000002.03}]}}"#
    /// shelly-api-docs.shelly.cloud/gen2/Devices/ShellyX/.../Light: `light.getStatus()` -> `{ output: true, brightness: 75 }`,
    /// published on `<id>/status/light:0` (bieniu/ha-shellies-discovery-gen2 `TOPIC_LIGHT = "~status/light:{id}"`).
    static let shellyPlusLightStatusOn = #"{"id":0,"output":true,"brightness":75}"#
    /// Light NotifyStatus (Notifications page structure, component `light:0`).
    static let shellyPlusNotifyLightOff =
        #"{"src":"shellyplusdimmer-b0b21c123456","dst":"shellyplusdimmer-b0b21c123456/events","method":"NotifyStatus","params":{"ts":1700000003.04,"light:0":{"id":0,"output":false}}}"#

    /// Shelly RGBW2 (gen1) in color mode: `shellies/<id>/color/0` `on`/`off` and
    /// `color/0/status` JSON with `ison` (iobroker-community-adapters/ioBroker.shelly
    /// `lib/devices/gen1/shellyrgbw2.js`, `lights.Switch` and `lights.red`; Shelly gen1 API
    /// docs, "Shelly RGBW2: MQTT"; the status keys as its `/color/0` HTTP answer lists them).
    static let shellyRGBW2ColorStatusOn =
        #"{"ison":true,"source":"mqtt","has_timer":false,"timer_started":0,"timer_duration":0,"timer_remaining":0,"mode":"color","red":255,"green":120,"blue":0,"white":0,"gain":100,"effect":0,"power":4.33,"overpower":false}"#
    /// The same in white mode, channel 2: `white/2/status` (same file, `white2.Switch`).
    static let shellyRGBW2WhiteStatusOff =
        #"{"ison":false,"source":"http","has_timer":false,"timer_started":0,"timer_duration":0,"timer_remaining":0,"mode":"white","brightness":40,"power":0.00,"overpower":false}"#
    /// gen2+ CCT, RGBW and RGBCCT status (shelly-api-docs.shelly.cloud/gen2/ComponentsAndServices/CCT,
    /// RGBW, RGBCCT: status `id`, `source`, `output`, `brightness`, `ct` / `rgb` / `white`),
    /// published on `<id>/status/cct:0` and so on, and their NotifyStatus.
    static let shellyCCTStatusOn = #"{"id":0,"source":"init","output":true,"brightness":60,"ct":3500}"#
    static let shellyRGBWStatusOff = #"{"id":0,"source":"init","output":false,"brightness":50,"rgb":[255,0,0],"white":0}"#
    static let shellyNotifyRGBCCTOn =
        #"{"src":"shellyrgbcctbulbg3-abcdef123456","dst":"shellyrgbcctbulbg3-abcdef123456/events","method":"NotifyStatus","params":{"ts":1700000004.05,"rgbcct:0":{"id":0,"output":true}}}"#

    // MARK: ESPHome (esphome/esphome @ 33fdbbe3)

    /// esphome/components/light/light_json_schema.cpp `dump_json` for a brightness light:
    /// `color_mode`, `state` ("ON"/"OFF"), `brightness` (0-255) and an always-created `color` object.
    static let esphomeLightOn = #"{"color_mode":"brightness","state":"ON","brightness":255,"color":{}}"#
    static let esphomeLightOff = #"{"color_mode":"brightness","state":"OFF","brightness":255,"color":{}}"#
    /// esphome/components/mqtt/mqtt_switch.cpp publishes "ON"/"OFF" on `<node>/switch/<name>/state`.
    static let esphomeSwitchOff = "OFF"
    /// esphome/components/mqtt/mqtt_fan.cpp `publish_state` publishes "ON"/"OFF" on `<node>/fan/<name>/state`
    /// (then its speed level, oscillation and direction on topics of their own).
    static let esphomeFanOn = "ON"
    static let esphomeFanOff = "OFF"
}
