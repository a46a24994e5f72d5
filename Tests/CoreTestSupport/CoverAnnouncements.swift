/// Announcements of covers and locks, each naming its source.
public enum CoverAnnouncements {
    /// zigbee2mqtt `bridge/devices` entries: exposes as zigbee-herdsman-converters src/lib/exposes.ts builds them
    /// (`Cover`: enum `state` OPEN/CLOSE/STOP at access STATE_SET 3, `withPosition()` numeric `position` access ALL 7;
    /// `e.lock()`: binary `state` LOCK/UNLOCK access 7 and enum `lock_state`), for Tuya TS130F "Curtain/blind switch"
    /// (src/devices/tuya.ts) and Yale YRD226HA2619 "Assure lock" (src/devices/yale.ts).
    public static let zigbee2mqttDevices = #"""
    [{"ieee_address":"0x00124b0001000001","type":"Coordinator","friendly_name":"Coordinator","supported":true,"definition":null},
     {"ieee_address":"0xa4c138000000c0e1","type":"Router","friendly_name":"living_blind","supported":true,"disabled":false,
      "definition":{"model":"TS130F","vendor":"Tuya","description":"Curtain/blind switch","exposes":[
        {"type":"cover","features":[{"type":"enum","name":"state","property":"state","access":3,"values":["OPEN","CLOSE","STOP"],"label":"State"},
          {"type":"numeric","name":"position","property":"position","access":7,"value_min":0,"value_max":100,"unit":"%","label":"Position"}]},
        {"type":"enum","name":"moving","property":"moving","access":1,"values":["UP","STOP","DOWN"]},
        {"type":"numeric","name":"linkquality","property":"linkquality","access":1}]}},
     {"ieee_address":"0x000d6f0000ab12cd","type":"EndDevice","friendly_name":"front_door","supported":true,
      "definition":{"model":"YRD226HA2619","vendor":"Yale","description":"Assure lock","exposes":[
        {"type":"lock","features":[{"type":"binary","name":"state","property":"state","access":7,"value_on":"LOCK","value_off":"UNLOCK","label":"State"},
          {"type":"enum","name":"lock_state","property":"lock_state","access":1,"values":["not_fully_locked","locked","unlocked"]}]},
        {"type":"numeric","name":"battery","property":"battery","access":1}]}},
     {"ieee_address":"0xa4c138000000d0e2","type":"Router","friendly_name":"double_curtain","supported":true,
      "definition":{"model":"TS130F_dual","vendor":"Tuya","description":"Dual curtain/blind module","exposes":[
        {"type":"cover","endpoint":"left","features":[{"type":"enum","name":"state","property":"state_left","access":3,"values":["OPEN","CLOSE","STOP"],"endpoint":"left"}]},
        {"type":"cover","endpoint":"right","features":[{"type":"enum","name":"state","property":"state_right","access":3,"values":["OPEN","CLOSE","STOP"],"endpoint":"right"}]}]}}]
    """#

    /// ESPHome's Home Assistant discovery (esphome/components/mqtt/mqtt_cover.cpp and mqtt_lock.cpp `send_discovery`,
    /// abbreviated keys of mqtt_const.h: `dev_cla`, `pos_t`, `set_pos_t`), state and command on
    /// `NODE/cover/NAME/state` and `/command`, availability `NODE/status`.
    public static let esphomeGarageDoor = #"{"dev_cla":"garage","name":"Garage Door","stat_t":"garagedoor1/cover/garage_door/state","cmd_t":"garagedoor1/cover/garage_door/command","pos_t":"garagedoor1/cover/garage_door/position/state","set_pos_t":"garagedoor1/cover/garage_door/position/command","avty_t":"garagedoor1/status","uniq_id":"ESPcovergarage_door","dev":{"ids":"20500de464ec","name":"GarageDoor1","sw":"2024.10.0","mdl":"esp32","mf":"Espressif","cns":[["mac","20500de464ec"]]}}"#
    public static let esphomeLock = #"{"name":"Front Lock","stat_t":"hall/lock/front_lock/state","cmd_t":"hall/lock/front_lock/command","avty_t":"hall/status","uniq_id":"ESPlockfront_lock","dev":{"ids":"30500de464ec","name":"Hall","sw":"2024.10.0","mdl":"esp32","mf":"Espressif","cns":[["mac","30500de464ec"]]}}"#

    /// A custom cover on Home Assistant's `cover.mqtt` keys (home-assistant.io source/_integrations/cover.mqtt.markdown:
    /// `state_open`, `state_closed`, `state_opening`, `state_closing`, `state_stopped`, `position_topic`, `position_template`).
    public static let customGate = #"{"name":"Yard Gate","dev_cla":"gate","cmd_t":"yard/gate/set","pl_open":"go_open","pl_cls":"go_close","stat_t":"yard/gate","val_tpl":"{{ value_json.door }}","stat_open":"UP","stat_clsd":"DOWN","stat_opening":"RISING","stat_closing":"FALLING","pos_t":"yard/gate","pos_tpl":"{{ value_json.level }}","avty_t":"yard/gate/lwt","uniq_id":"yard_gate_1"}"#
    /// lock.mqtt keys with their own words.
    public static let customLock = #"{"name":"Shed","cmd_t":"shed/lock/set","pl_lock":"close_bolt","pl_unlk":"open_bolt","stat_t":"shed/lock","stat_locked":"bolted","stat_unlocked":"free","stat_jam":"stuck","uniq_id":"shed_lock_1"}"#
    public static let reportlessCover = #"{"name":"Awning","cmd_t":"awning/set","uniq_id":"awning_1"}"#

    /// Shelly gen2 `cover:0` (shelly-api-docs.shelly.cloud/gen2/ComponentsAndServices/Cover, Cover.GetStatus as the
    /// answer to `status_update`); gen1 2.5 in roller mode (shellies/<id>/roller/0 and /pos, gen1 docs).
    public static let shellyPlus2PM = "shellyplus2pm-485519a1ff8c"
    public static let shellyPlus2PMAnnounce = #"{"name":null,"id":"shellyplus2pm-485519a1ff8c","mac":"485519A1FF8C","model":"SNSW-102P16EU","gen":2,"fw_id":"20240430-105751/1.3.1-gd8534ee","ver":"1.3.1","app":"Plus2PM","auth_en":false,"auth_domain":null}"#
    public static let shelly25Announce = #"{"id":"shellyswitch25-8CAAB5616291","model":"SHSW-25","mac":"8CAAB5616291","ip":"192.168.1.60","new_fw":false,"fw_ver":"20230913-112003/v1.14.0-gcb84623","mode":"roller"}"#

    /// Tasmota discovery of a Shelly 2.5 running Tasmota with one shutter (arendst/Tasmota
    /// tasmota/tasmota_xdrv_driver/xdrv_12_discovery.ino `TasDiscoverMessage`: a shutter's two relays are `rl` 3,
    /// `sho` holds one options entry and `sht` one tilt triple per shutter present).
    public static let tasmotaShutter = #"{"ip":"192.168.1.61","dn":"Blinds","fn":["Blinds",null,null,null,null,null,null,null],"hn":"blinds-4B98","mac":"8CAAB5614B98","md":"Shelly 2.5","ty":0,"if":0,"ofln":"Offline","onln":"Online","state":["OFF","ON","TOGGLE","HOLD"],"sw":"13.2.0","t":"living_blinds","ft":"%prefix%/%topic%/","tp":["cmnd","stat","tele"],"rl":[3,3,0,0,0,0,0,0],"swc":[-1,-1,-1,-1,-1,-1,-1,-1],"swn":[null,null,null,null,null,null,null,null],"btn":[0,0,0,0,0,0,0,0],"so":{"4":0,"11":0,"13":0,"17":0,"20":0,"30":0,"68":0,"73":0,"82":0,"114":0,"117":0},"lk":0,"lt_st":0,"bat":0,"dslp":0,"sho":[0],"sht":[[0,0,0]],"ver":1}"#

    public static let shellyPlus2PMCoverStatus =
        #"{"id":0,"source":"WS_in","state":"stopped","apower":0.0,"voltage":231.6,"current":0.000,"pf":0.00,"freq":50.0,"aenergy":{"total":0.003,"by_minute":[0,0,0],"minute_ts":1654511260},"temperature":{"tC":41.6,"tF":106.9},"pos_control":true,"last_direction":"open","current_pos":47}"#

    /// The retained messages a broker holds for these devices (topic, payload). The Shelly
    /// announcements are on each device's own announce topic (both generations also use
    /// `shellies/announce`, which retains only one).
    public static let messages: [(topic: String, payload: String)] = [
        ("zigbee2mqtt/bridge/devices", zigbee2mqttDevices),
        ("homeassistant/cover/garagedoor1/garage_door/config", esphomeGarageDoor),
        ("homeassistant/lock/hall/front_lock/config", esphomeLock),
        ("homeassistant/cover/yard_gate/config", customGate),
        ("homeassistant/lock/shed_lock/config", customLock),
        ("homeassistant/cover/awning/config", reportlessCover),
        ("\(shellyPlus2PM)/announce", shellyPlus2PMAnnounce),
        ("\(shellyPlus2PM)/status/cover:0", shellyPlus2PMCoverStatus),
        ("shellies/shellyswitch25-8CAAB5616291/announce", shelly25Announce),
        ("shellies/shellyswitch25-8CAAB5616291/roller/0", "stop"),
        ("shellies/shellyswitch25-8CAAB5616291/roller/0/pos", "47"),
        ("tasmota/discovery/8CAAB5614B98/config", tasmotaShutter),
    ]
}
