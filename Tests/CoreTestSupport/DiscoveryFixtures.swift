import Foundation

/// Real announcement payloads, each with where it comes from. Kept verbatim
/// except where noted (pretty-printing removed, a second copy renamed).
public enum DiscoveryFixtures {
    // MARK: zigbee2mqtt

    /// A zigbee2mqtt 1.17.1 `zigbee2mqtt/bridge/devices` captured from a real network:
    /// a Lonsonho 2-gang switch (endpoints l1, l2), the coordinator and a Feibit CO sensor.
    /// Source: a public Ruby MQTT test file quoting the capture (code corpus, search
    /// "QS-Zigbee-S04-2C-LN"); `friendly_name` of the switch renamed from its IEEE
    /// address to "hall_switch" (as a user names it), nothing else changed.
    public static let zigbee2mqttDevices = #"""
    [{"date_code":"","definition":{"description":"2 gang switch module with neutral wire","exposes":[{"endpoint":"l1","features":[{"access":7,"description":"On/off state of the switch","endpoint":"l1","name":"state","property":"state_l1","type":"binary","value_off":"OFF","value_on":"ON","value_toggle":"TOGGLE"}],"type":"switch"},{"endpoint":"l2","features":[{"access":7,"description":"On/off state of the switch","endpoint":"l2","name":"state","property":"state_l2","type":"binary","value_off":"OFF","value_on":"ON","value_toggle":"TOGGLE"}],"type":"switch"},{"access":1,"description":"Link quality (signal strength)","name":"linkquality","property":"linkquality","type":"numeric","unit":"lqi","value_max":255,"value_min":0}],"model":"QS-Zigbee-S04-2C-LN","supports_ota":false,"vendor":"Lonsonho"},"endpoints":{"1":{"bindings":[],"clusters":{"input":["genBasic","genGroups","genScenes","genOnOff","genOnOff"],"output":["genOta","genTime"]},"configured_reportings":[]}},"friendly_name":"hall_switch","ieee_address":"0x5c0272fffec89ec2","interview_completed":true,"interviewing":false,"model_id":"TS0003","network_address":17171,"power_source":"Mains (single phase)","supported":true,"type":"Router"},
     {"definition":null,"endpoints":{"1":{"bindings":[],"clusters":{"input":[],"output":[]},"configured_reportings":[]}},"friendly_name":"Coordinator","ieee_address":"0x00124b0014d9b30e","interview_completed":true,"interviewing":false,"network_address":0,"supported":false,"type":"Coordinator"},
     {"date_code":"20171215","definition":{"description":"Smart carbon monoxide sensor","exposes":[{"access":1,"description":"Indicates if CO (carbon monoxide) is detected","name":"carbon_monoxide","property":"carbon_monoxide","type":"binary","value_off":false,"value_on":true},{"access":1,"description":"Indicates if the battery of this device is almost empty","name":"battery_low","property":"battery_low","type":"binary","value_off":false,"value_on":true},{"access":1,"description":"Remaining battery in %","name":"battery","property":"battery","type":"numeric","unit":"%","value_max":100,"value_min":0}],"model":"SCA01ZB","supports_ota":false,"vendor":"Feibit"},"friendly_name":"0x00158d000205d552","ieee_address":"0x00158d000205d552","interview_completed":true,"interviewing":false,"model_id":"FNB56-COS06FB1.7","network_address":65018,"power_source":"Battery","supported":true,"type":"EndDevice"}]
    """#

    /// A `bridge/devices` list of about `bytes` bytes (issue 19 item 5's lists of
    /// 3.9 MiB): the captured 2-gang switch of `zigbee2mqttDevices` again and again,
    /// each with its own name (`switch_N`) and IEEE address; and how many devices it holds.
    public static func realShapedDeviceList(bytes: Int) -> (list: String, devices: Int) {
        let device = String(zigbee2mqttDevices.dropFirst().prefix { $0 != "\n" }.dropLast())
        var devices: [String] = []
        var size = 2
        while size < bytes {
            let hex = String(devices.count, radix: 16)
            let copy = device.replacingOccurrences(of: "hall_switch", with: "switch_\(devices.count)")
                .replacingOccurrences(of: "0x5c0272fffec89ec2", with: "0x5c0272" + String(repeating: "0", count: max(0, 6 - hex.count)) + hex + "fec2")
            size += copy.utf8.count + 1
            devices.append(copy)
        }
        return ("[" + devices.joined(separator: ",") + "]", devices.count)
    }

    /// The light expose exactly as zigbee2mqtt.io `docs/guide/usage/exposes.md` ("Light")
    /// documents it, in an IKEA LED1624G9 entry shaped like `docs/guide/usage/mqtt_topics_and_messages.md`
    /// ("zigbee2mqtt/bridge/devices", device `my_bulb`), plus one device marked disabled.
    public static let zigbee2mqttLight = #"""
    [{"ieee_address":"0x90fd9ffffe6494fc","type":"Router","network_address":57440,"supported":true,"friendly_name":"my_bulb","definition":{"model":"LED1624G9","vendor":"IKEA","description":"TRADFRI LED bulb E14/E26/E27 600 lumen, dimmable, color, opal white","options":[],"exposes":[{"type":"light","features":[{"type":"binary","name":"state","property":"state","value_on":"ON","value_off":"OFF","value_toggle":"TOGGLE","access":7},{"type":"numeric","name":"brightness","property":"brightness","value_min":0,"value_max":254,"access":7}]}]},"power_source":"Mains (single phase)","interviewing":false,"interview_completed":true},
     {"ieee_address":"0x00158d00018255df","type":"Router","network_address":29159,"supported":true,"disabled":true,"friendly_name":"my_plug","definition":{"model":"ZNCZ02LM","vendor":"Xiaomi","description":"Mi power plug ZigBee","options":[],"exposes":[{"type":"switch","features":[{"type":"binary","name":"state","property":"state","value_on":"ON","value_off":"OFF","value_toggle":"TOGGLE","access":7}]}]},"interviewing":false,"interview_completed":true}]
    """#

    /// A Hampton Bay 99432 ceiling fan and light controller: its light and fan exposes as
    /// Koenkk/zigbee-herdsman-converters `src/devices/hampton_bay.ts` declares them
    /// (`e.light_brightness()`, `e.fan().withModes([...])`), in a `bridge/devices` entry shaped
    /// as `zigbeeLight` (docs/guide/usage/exposes.md, "Light" and "Fan"); IEEE address illustrative.
    public static let zigbee2mqttFanAndLight = #"""
    [{"ieee_address":"0x000d6f000e1f2a3b","type":"Router","network_address":31337,"supported":true,"friendly_name":"ceiling_fan","definition":{"model":"99432","vendor":"Hampton Bay","description":"Universal wink enabled white ceiling fan premier remote control","options":[],"exposes":[{"type":"light","features":[{"type":"binary","name":"state","property":"state","value_on":"ON","value_off":"OFF","value_toggle":"TOGGLE","access":7},{"type":"numeric","name":"brightness","property":"brightness","value_min":0,"value_max":254,"access":7}]},{"type":"fan","features":[{"type":"binary","name":"state","property":"fan_state","value_on":"ON","value_off":"OFF","access":7},{"type":"enum","name":"mode","property":"fan_mode","values":["off","low","medium","high","on"],"access":7}]}]},"power_source":"Mains (single phase)","interviewing":false,"interview_completed":true}]
    """#

    /// `zigbee2mqtt/bridge/groups` as zigbee2mqtt.io `docs/guide/usage/mqtt_topics_and_messages.md` shows it.
    public static let zigbee2mqttGroups = #"[{"id":1,"friendly_name":"my_group","scenes":[{"id":1,"name":"Scene 1"}],"members":[{"ieee_address":"0x90fd9ffffe6494fc","endpoint":1}]}]"#

    /// The same capture's Home Assistant copy of the CO sensor (zigbee2mqtt with
    /// `homeassistant: true`), topic `homeassistant/binary_sensor/0x00158d000205d552/carbon_monoxide/config`.
    public static let zigbee2mqttHomeAssistantCopy = #"{"availability":[{"topic":"zigbee2mqtt/bridge/state"}],"device":{"identifiers":["zigbee2mqtt_0x00158d000205d552"],"manufacturer":"Feibit","model":"Smart carbon monoxide sensor (SCA01ZB)","name":"0x00158d000205d552","sw_version":"Zigbee2MQTT 1.17.1"},"device_class":"safety","json_attributes_topic":"zigbee2mqtt/0x00158d000205d552","name":"0x00158d000205d552 carbon monoxide","payload_off":false,"payload_on":true,"state_topic":"zigbee2mqtt/0x00158d000205d552","unique_id":"0x00158d000205d552_carbon_monoxide_zigbee2mqtt","value_template":"{{ value_json.carbon_monoxide }}"}"#

    /// zigbee2mqtt with `homeassistant: true` announces a group once per member type: the
    /// light and the switch copies of group 9 `ha_discovery_group` exactly as Koenkk/zigbee2mqtt
    /// `test/extensions/homeassistant.test.ts` ("Should discover devices and groups") expects them,
    /// on `homeassistant/light/1221051039810110150109113116116_9/light/config` and
    /// `homeassistant/switch/1221051039810110150109113116116_9/switch/config`; the test's
    /// `version` and `origin` variables filled in, the light's `effect_list` shortened.
    public static let zigbee2mqttGroupLightCopy = #"{"availability":[{"topic":"zigbee2mqtt/bridge/state","value_template":"{{ value_json.state }}"}],"brightness":true,"brightness_scale":254,"command_topic":"zigbee2mqtt/ha_discovery_group/set","device":{"identifiers":["zigbee2mqtt_1221051039810110150109113116116_9"],"name":"HA Discovery Group","sw_version":"Zigbee2MQTT 2.6.0","model":"Group","manufacturer":"Zigbee2MQTT","via_device":"zigbee2mqtt_bridge_0x00124b00120144ae"},"icon":"mdi:lightbulb-group","max_mireds":454,"min_mireds":250,"name":null,"schema":"json","state_topic":"zigbee2mqtt/ha_discovery_group","supported_color_modes":["xy","color_temp"],"effect":true,"effect_list":["blink","breathe","okay"],"object_id":"ha_discovery_group","default_entity_id":"light.ha_discovery_group","unique_id":"9_light_zigbee2mqtt","group":["0x000b57fffec6a5b4_light_zigbee2mqtt","0x000b57fffec6a5b7_light_zigbee2mqtt"],"origin":{"name":"Zigbee2MQTT","sw":"2.6.0","url":"https://www.zigbee2mqtt.io"}}"#
    public static let zigbee2mqttGroupSwitchCopy = #"{"availability":[{"topic":"zigbee2mqtt/bridge/state","value_template":"{{ value_json.state }}"}],"command_topic":"zigbee2mqtt/ha_discovery_group/set","device":{"identifiers":["zigbee2mqtt_1221051039810110150109113116116_9"],"name":"HA Discovery Group","sw_version":"Zigbee2MQTT 2.6.0","model":"Group","manufacturer":"Zigbee2MQTT","via_device":"zigbee2mqtt_bridge_0x00124b00120144ae"},"icon":"mdi:lightbulb-group","name":null,"payload_off":"OFF","payload_on":"ON","state_topic":"zigbee2mqtt/ha_discovery_group","object_id":"ha_discovery_group","default_entity_id":"switch.ha_discovery_group","unique_id":"9_switch_zigbee2mqtt","group":["0x0017880104e45542_switch_right_zigbee2mqtt"],"origin":{"name":"Zigbee2MQTT","sw":"2.6.0","url":"https://www.zigbee2mqtt.io"},"value_template":"{{ value_json[\"state\"] }}"}"#
    /// The same group in `zigbee2mqtt/bridge/groups`, shaped as zigbee2mqtt.io
    /// `docs/guide/usage/mqtt_topics_and_messages.md` shows that list, with the members the
    /// copies above name.
    public static let zigbee2mqttGroupNine = #"[{"id":9,"friendly_name":"ha_discovery_group","scenes":[],"members":[{"ieee_address":"0x000b57fffec6a5b4","endpoint":1},{"ieee_address":"0x000b57fffec6a5b7","endpoint":1},{"ieee_address":"0x0017880104e45542","endpoint":3}]}]"#

    // MARK: Tasmota

    /// Tasmota 9.3.0 on an Adafruit Huzzah, `tasmota/discovery/<MAC>/config` (retained):
    /// "Single Relay with Toggle" from a public "AutoDiscovery Protocol" note of captured
    /// messages (code corpus, search "Single Relay with Toggle"); its MAC was masked
    /// (`xxxxxxxxxxxx`), here `A4CF12B3C4D5`, and `//` comments removed.
    public static let tasmotaSingleRelay = #"{"ip":"192.168.1.50","dn":"Tasmota","fn":["Tasmota",null,null,null,null,null,null,null],"hn":"tasmota-huzzah","mac":"A4CF12B3C4D5","md":"Huzzah","ty":0,"if":0,"ofln":"Offline","onln":"Online","state":["OFF","ON","TOGGLE","HOLD"],"sw":"9.3.0","t":"huzzah_1","ft":"%prefix%/%topic%/","tp":["cmnd","stat","tele"],"rl":[1,0,0,0,0,0,0,0],"swc":[-1,-1,-1,-1,-1,-1,-1,-1],"swn":[null,null,null,null,null,null,null,null],"btn":[0,0,0,0,0,0,0,0],"so":{"4":0,"11":0,"13":0,"17":0,"20":0,"30":0,"68":0,"73":0,"82":0,"114":0,"117":0},"lk":1,"lt_st":0,"sho":[0,0,0,0],"ver":1}"#

    /// The same Huzzah after `StateText1 AUS`, `StateText2 AN`, `StateText3 UMSCHALTEN`,
    /// `StateText4 HALTEN` (tasmota.github.io `docs/Commands.md`, StateText<x>), topic
    /// `terrasse`, MAC `A4CF12B3C4D6`: the discovery message's `state` carries the texts
    /// (arendst/Tasmota `tasmota/tasmota_xdrv_driver/xdrv_12_discovery.ino`), and the device
    /// reports `AN`/`AUS` but takes only ON/OFF (and the build's language words) as commands
    /// (`tasmota/tasmota_support/support.ino`, `GetStateNumber` over `kOptions`).
    public static let tasmotaGermanStateTexts = tasmotaSingleRelay
        .replacing(#""state":["OFF","ON","TOGGLE","HOLD"]"#, with: #""state":["AUS","AN","UMSCHALTEN","HALTEN"]"#)
        .replacing(#""t":"huzzah_1""#, with: #""t":"terrasse""#)
        .replacing(#""fn":["Tasmota""#, with: #""fn":["Terrasse""#)
        .replacing("A4CF12B3C4D5", with: "A4CF12B3C4D6")

    /// home-assistant/core `tests/components/tasmota/test_common.py` `DEFAULT_CONFIG`
    /// (a Sonoff Basic with FullTopic `%topic%/%prefix%/`), with `rl` set to two relays
    /// as the relay tests of that suite do (`config["rl"][0] = 1; config["rl"][1] = 1`).
    public static let tasmotaTwoRelaysCustomFullTopic = #"{"ip":"192.168.15.10","dn":"Tasmota","fn":["Test","Beer","Milk","Four",null],"hn":"tasmota_49A3BC-0956","if":0,"lk":1,"mac":"00000049A3BC","md":"Sonoff Basic","ofln":"Offline","onln":"Online","state":["OFF","ON","TOGGLE","HOLD"],"sw":"8.4.0.2","swn":[null,null,null,null,null],"t":"tasmota_49A3BC","ft":"%topic%/%prefix%/","tp":["cmnd","stat","tele"],"rl":[1,1,0,0,0,0,0,0],"swc":[-1,-1,-1,-1,-1,-1,-1,-1],"btn":[0,0,0,0],"so":{"4":0,"11":0,"13":0,"17":1,"20":0,"30":0,"68":0,"73":0,"82":0,"114":0},"ty":0,"lt_st":0,"ver":1}"#

    // MARK: Home Assistant discovery (ESPHome and others)

    /// ESPHome 2026.8.0 on an ESP32, captured from a real device: its status LED, a
    /// `schema: json` light, topic `homeassistant/light/garagedoor1/garage_esp_status_led/config`,
    /// and a temperature sensor. Source: avanha/pmaas-plugin-esphome `plugin_test.go`.
    public static let esphomeJSONLight = #"{"schema":"json","supported_color_modes":["onoff"],"name":"Garage ESP Status LED","stat_t":"garagedoor1/light/garage_esp_status_led/state","cmd_t":"garagedoor1/light/garage_esp_status_led/command","avty_t":"garagedoor1/status","uniq_id":"ESPlightgarage_esp_status_led","dev":{"ids":"20500de464ec","name":"GarageDoor1","sw":"2026.8.0 (config hash 0x0dd1e1e6)","mdl":"esp32","mf":"Espressif","cns":[["mac","20500de464ec"]]}}"#
    public static let esphomeSensor = #"{"sug_dsp_prc":1,"unit_of_meas":"°C","stat_cla":"measurement","name":"Garage Temperature","dev_cla":"temperature","stat_t":"garagedoor1/sensor/garage_temperature/state","avty_t":"garagedoor1/status","uniq_id":"ESPsensorgarage_temperature","dev":{"ids":"20500de464ec","name":"GarageDoor1","sw":"2026.8.0 (config hash 0x0dd1e1e6)","mdl":"esp32","mf":"Espressif","cns":[["mac","20500de464ec"]]}}"#

    /// An ESPHome switch as esphome/esphome `esphome/components/mqtt/mqtt_component.cpp`
    /// (`send_discovery_`) and `mqtt_switch.cpp` write it, with the keys and device block
    /// of the captured device above (`garagedoor1`), for a switch named "Garage Relay".
    public static let esphomeSwitch = #"{"name":"Garage Relay","stat_t":"garagedoor1/switch/garage_relay/state","cmd_t":"garagedoor1/switch/garage_relay/command","avty_t":"garagedoor1/status","uniq_id":"ESPswitchgarage_relay","dev":{"ids":"20500de464ec","name":"GarageDoor1","sw":"2026.8.0 (config hash 0x0dd1e1e6)","mdl":"esp32","mf":"Espressif","cns":[["mac","20500de464ec"]]}}"#

    /// ESPHome fans as esphome/esphome `esphome/components/mqtt/mqtt_fan.cpp` (`send_discovery`) and
    /// `mqtt_component.cpp` (`send_discovery_`: name, `stat_t`, `cmd_t`, `avty_t`, `uniq_id`, `dev`) write them, with
    /// the device block of the captured device above: a plain on/off fan, and one with speeds and oscillation
    /// (`pct_cmd_t`/`pct_stat_t` on `speed_level/...`, `spd_rng_max` its speed count, `osc_cmd_t`/`osc_stat_t`:
    /// mqtt_const.h's abbreviations). Its state is `ON`/`OFF` on `NODE/fan/NAME/state` (`publish_state`).
    public static let esphomeFan = #"{"name":"Garage Fan","stat_t":"garagedoor1/fan/garage_fan/state","cmd_t":"garagedoor1/fan/garage_fan/command","avty_t":"garagedoor1/status","uniq_id":"ESPfangarage_fan","dev":{"ids":"20500de464ec","name":"GarageDoor1","sw":"2026.8.0 (config hash 0x0dd1e1e6)","mdl":"esp32","mf":"Espressif","cns":[["mac","20500de464ec"]]}}"#
    public static let esphomeSpeedFan = #"{"osc_cmd_t":"garagedoor1/fan/ceiling_fan/oscillation/command","osc_stat_t":"garagedoor1/fan/ceiling_fan/oscillation/state","pct_cmd_t":"garagedoor1/fan/ceiling_fan/speed_level/command","pct_stat_t":"garagedoor1/fan/ceiling_fan/speed_level/state","spd_rng_max":3,"name":"Ceiling Fan","stat_t":"garagedoor1/fan/ceiling_fan/state","cmd_t":"garagedoor1/fan/ceiling_fan/command","avty_t":"garagedoor1/status","uniq_id":"ESPfanceiling_fan","dev":{"ids":"20500de464ec","name":"GarageDoor1","sw":"2026.8.0 (config hash 0x0dd1e1e6)","mdl":"esp32","mf":"Espressif","cns":[["mac","20500de464ec"]]}}"#
    /// A fan on Home Assistant's `fan.mqtt` keys whose power goes through a template: not translated.
    public static let templatedFan = #"{"name":"Attic Fan","cmd_t":"attic/fan/set","cmd_tpl":"{\"power\":\"{{ value }}\"}","stat_t":"attic/fan","stat_val_tpl":"{{ value_json.power }}","uniq_id":"attic_fan_1"}"#

    /// home-assistant.io `source/_integrations/mqtt.markdown`, "Using abbreviations and base topic":
    /// topic `homeassistant/switch/irrigation/config`.
    public static let haAbbreviatedSwitch = #"{"~":"homeassistant/switch/irrigation","name":"garden","cmd_t":"~/set","stat_t":"~/state"}"#

    /// home-assistant.io `source/_integrations/mqtt.markdown`, "Another example using abbreviations
    /// topic name and base topic": a `schema: json` light, topic `homeassistant/light/kitchen/config`.
    public static let haAbbreviatedJSONLight = #"{"~":"homeassistant/light/kitchen","name":"Kitchen","uniq_id":"kitchen_light","cmd_t":"~/set","stat_t":"~/state","schema":"json","brightness":true}"#

    /// Tasmota's legacy Home Assistant discovery of a plug, as captured from MQTT
    /// (code corpus, search "EZPlug_35EBF6"): `value_template` `{{value_json.POWER1}}`.
    public static let tasmotaLegacyHomeAssistant = #"{"name":"3DPrinter","stat_t":"tele/EZPlug_35EBF6/STATE","avty_t":"tele/EZPlug_35EBF6/LWT","pl_avail":"Online","pl_not_avail":"Offline","cmd_t":"cmnd/EZPlug_35EBF6/POWER1","pl_off":"OFF","pl_on":"ON","val_tpl":"{{value_json.POWER1}}","uniq_id":"35EBF6_RL_1","dev":{"ids":["35EBF6"]}}"#

    /// home-assistant.io `source/_integrations/mqtt.markdown`, "Device discovery payload",
    /// with its two sensors, plus a switch component written the way that page's
    /// "Entities with command topics" example writes one.
    public static let haDeviceDiscovery = #"{"dev":{"ids":"ea334450945afc","name":"Kitchen","mf":"Bla electronics","mdl":"xya","sw":"1.0","sn":"ea334450945afc","hw":"1.0rev2"},"o":{"name":"bla2mqtt","sw":"2.1","url":"https://bla2mqtt.example.com/support"},"cmps":{"some_unique_component_id1":{"p":"sensor","device_class":"temperature","unit_of_measurement":"°C","value_template":"{{ value_json.temperature}}","unique_id":"temp01ae_t"},"kettle":{"p":"switch","name":"Kettle","command_topic":"kitchen/kettle/set","value_template":"{{ value_json['power'] }}","unique_id":"kettle01ae"}},"state_topic":"sensorBedroom/state","qos":2}"#

    /// A SwitchBot Bot heard by an OpenMQTTGateway, as `main/ZgatewayBT.ino` announces it
    /// (1technophile/OpenMQTTGateway: `createDiscovery("switch", ...)` for model SBS1's `state`,
    /// non-gateway entity, so `main/ZmqttDiscovery.ino` writes `stat_t` as `+/+` + `/BTtoMQTT/<MAC>`
    /// and `cmd_t` as `mqtt_topic` + gateway name + `/commands/MQTTtoBT/config`); the MAC, the
    /// gateway name `OMG_ESP32_BLE` and base `home/` illustrative. Topic
    /// `homeassistant/switch/C1D2E3F4A5B6-state/config`.
    public static let openMQTTGatewayBot = #"{"stat_t":"+/+/BTtoMQTT/C1D2E3F4A5B6","dev_cla":"switch","name":"X1-state","uniq_id":"C1D2E3F4A5B6-state","val_tpl":"{{ value_json.state | is_defined }}","pl_on":"{\"model_id\":\"X1\",\"cmd\":\"on\",\"id\":\"C1:D2:E3:F4:A5:B6\"}","pl_off":"{\"model_id\":\"X1\",\"cmd\":\"off\",\"id\":\"C1:D2:E3:F4:A5:B6\"}","stat_off":"off","stat_on":"on","cmd_t":"home/OMG_ESP32_BLE/commands/MQTTtoBT/config","device":{"ids":["C1D2E3F4A5B6"],"cns":[["mac","C1D2E3F4A5B6"]],"mf":"SwitchBot","mdl":"X1","name":"Bot-F4A5B6","via_device":"OMG_ESP32_BLE"}}"#

    // MARK: Shelly

    /// A Shelly 1 (gen1) answering `announce`, as captured and quoted in a public Go
    /// converter (code corpus, search "8CAAB54B98DF"): on `shellies/announce` and
    /// `shellies/shelly1/announce`; its relay state is retained on `shellies/shelly1/relay/0`.
    public static let shellyGen1Announce = #"{"id":"shelly1","model":"SHSW-1","mac":"8CAAB54B98DF","ip":"192.168.8.93","new_fw":false,"fw_ver":"20220809-123240/v1.12-g99f7e0b"}"#

    /// A Shelly Plus 1PM (gen2): the announcement is `Shelly.GetDeviceInfo`
    /// (ALLTERCO/shelly-script-examples `mqtt/mqtt-announce.shelly.js`); the values are the
    /// device's own answer in Luligu/matterbridge-shelly (`shellyplus1pm-441793d69718`), and
    /// so is the `switch:0` status it publishes on `<prefix>/status/switch:0`.
    public static let shellyPlusAnnounce = #"{"name":null,"id":"shellyplus1pm-441793d69718","mac":"441793D69718","slot":0,"model":"SNSW-001P16EU","gen":2,"fw_id":"20240430-105751/1.3.1-gd8534ee","ver":"1.3.1","app":"Plus1PM","auth_en":false,"auth_domain":null}"#
    /// A Shelly RGBW2 (gen1) in color mode answering `announce` (the gen1 announce fields of
    /// `shellyGen1Announce`; model code SHRGBW2 as ioBroker.shelly `lib/devices/gen1/shellyrgbw2.js`
    /// names it; id and MAC illustrative) and `update` with `color/0` and `color/0/status`.
    public static let shellyRGBW2Id = "shellyrgbw2-C4D5E6"
    public static let shellyRGBW2Announce = #"{"id":"shellyrgbw2-C4D5E6","model":"SHRGBW2","mac":"A4CF12C4D5E6","ip":"192.168.8.94","new_fw":false,"fw_ver":"20230913-114244/v1.14.0-gcb84623","mode":"color"}"#
    public static let shellyRGBW2ColorStatusOff = #"{"ison":false,"source":"http","has_timer":false,"timer_started":0,"timer_duration":0,"timer_remaining":0,"mode":"color","red":255,"green":120,"blue":0,"white":0,"gain":100,"effect":0,"power":0.00,"overpower":false}"#

    /// A gen2+ CCT light on its factory MQTT settings (`status_ntf` off, `rpc_ntf` and
    /// `enable_rpc` on, as a gen4's `Shelly.GetConfig` shows them in a public capture, code
    /// corpus "Gen 4 Device API JSON Sample Data"), without the announce script: only its
    /// retained `<id>/online` is heard. Its answers to `Shelly.GetDeviceInfo` and
    /// `Shelly.GetStatus` have the fields shelly-api-docs.shelly.cloud/gen2 lists
    /// (ComponentsAndServices/Shelly, CCT, Input, Sys; RPC frames per General/RPCProtocol);
    /// the model is a Pro RGBWW PM in its `cctx2` profile (Devices/Gen2/ShellyProRGBWWPM),
    /// its id, MAC, model code and firmware illustrative. `ID` stands for the request's id.
    public static let shellyCCTPrefix = "shellyprorgbwwpm-a0a3b3c4d5e6"
    public static let shellyCCTDeviceInfoReply = #"{"id":ID,"src":"shellyprorgbwwpm-a0a3b3c4d5e6","dst":"switchboard-bridge-discover","result":{"name":null,"id":"shellyprorgbwwpm-a0a3b3c4d5e6","mac":"A0A3B3C4D5E6","slot":1,"model":"SPDC-0D5PE16EU","gen":2,"fw_id":"20241011-114455/1.4.4-g6d2a586","ver":"1.4.4","app":"ProRGBWWPM","auth_en":false,"auth_domain":null,"profile":"cctx2"}}"#
    public static let shellyCCTStatusReply = #"{"id":ID,"src":"shellyprorgbwwpm-a0a3b3c4d5e6","dst":"switchboard-bridge-discover","result":{"cct:0":{"id":0,"source":"init","output":false,"brightness":50,"ct":4000,"temperature":{"tC":41.2,"tF":106.2},"aenergy":{"total":0.0,"by_minute":[0.0,0.0,0.0],"minute_ts":1700000000},"apower":0.0,"current":0.0,"voltage":24.1},"input:0":{"id":0,"state":false},"mqtt":{"connected":true},"sys":{"mac":"A0A3B3C4D5E6","restart_required":false,"uptime":1234},"wifi":{"sta_ip":"192.168.8.95","status":"got ip","ssid":"home","rssi":-58}}}"#

    public static let shellyPlusSwitchStatus = #"{"id":0,"source":"HTTP_in","output":false,"apower":0,"voltage":239,"current":0,"aenergy":{"total":0,"by_minute":[0,0,0],"minute_ts":1716299460},"temperature":{"tC":58.9,"tF":138}}"#
}
