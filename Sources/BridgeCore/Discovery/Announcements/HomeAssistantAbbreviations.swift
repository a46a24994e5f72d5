/// The abbreviated keys of Home Assistant MQTT discovery that matter for a switch,
/// a light, a cover or a lock, at the root and inside `cmps` entries, `dev`, `o` and `avty` items.
///
/// Source: home-assistant.io `source/_integrations/mqtt.markdown`, "Supported
/// abbreviations in MQTT discovery messages" (and the device-registry and origin tables).
enum HomeAssistantAbbreviations {
    static let root: [String: String] = [
        "avty": "availability", "avty_mode": "availability_mode", "avty_t": "availability_topic",
        "avty_tpl": "availability_template", "cmd_t": "command_topic", "cmd_tpl": "command_template",
        "cmd_on_tpl": "command_on_template", "cmd_off_tpl": "command_off_template", "cmps": "components",
        "dev": "device", "dev_cla": "device_class", "e": "encoding", "en": "enabled_by_default",
        "ent_cat": "entity_category", "ic": "icon", "name": "name", "o": "origin", "obj_id": "object_id",
        "opt": "optimistic", "p": "platform", "pl_avail": "payload_available", "pl_not_avail": "payload_not_available",
        "pl_off": "payload_off", "pl_on": "payload_on", "ret": "retain", "stat_off": "state_off", "stat_on": "state_on",
        "stat_t": "state_topic", "stat_tpl": "state_template", "stat_val_tpl": "state_value_template",
        "t": "topic", "uniq_id": "unique_id", "val_tpl": "value_template", "migr_discvry": "migrate_discovery",
        "on_cmd_type": "on_command_type", "sup_clrm": "supported_color_modes", "clrm": "color_mode",
        // Covers and locks.
        "pl_open": "payload_open", "pl_cls": "payload_close", "pl_stop": "payload_stop", "stat_open": "state_open",
        "stat_clsd": "state_closed", "stat_opening": "state_opening", "stat_closing": "state_closing",
        "stat_stopped": "state_stopped", "pos_t": "position_topic", "pos_tpl": "position_template",
        "pos_open": "position_open", "pos_clsd": "position_closed", "pl_lock": "payload_lock", "pl_unlk": "payload_unlock",
        "stat_locked": "state_locked", "stat_unlocked": "state_unlocked", "stat_locking": "state_locking",
        "stat_unlocking": "state_unlocking", "stat_jam": "state_jammed",
    ]

    static let device: [String: String] = [
        "cu": "configuration_url", "cns": "connections", "ids": "identifiers", "name": "name",
        "mf": "manufacturer", "mdl": "model", "mdl_id": "model_id", "hw": "hw_version", "sw": "sw_version",
        "sa": "suggested_area", "sn": "serial_number",
    ]

    static let origin: [String: String] = ["name": "name", "sw": "sw_version", "url": "support_url"]

    /// `value` with its keys expanded (an abbreviation never replaces the full key
    /// written beside it; of members with one name the first is kept, as a lookup
    /// finds it), recursively into `device`, `origin`, `availability` items and
    /// `components` entries. Linear in the members, whatever repeats.
    static func expanded(_ value: JSONValue) -> JSONValue {
        guard case .object(let members) = value else { return value }
        let written = Set(members.map(\.key))
        var kept: Set<String> = []
        var result: [JSONMember] = []
        for member in members {
            let key = root[member.key] ?? member.key
            guard !(key != member.key && written.contains(key)), kept.insert(key).inserted else { continue }
            result.append(JSONMember(key, expandedChild(key, member.value)))
        }
        return .object(result)
    }

    private static func expandedChild(_ key: String, _ value: JSONValue) -> JSONValue {
        switch (key, value) {
        case ("device", _): return renamed(value, device)
        case ("origin", _): return renamed(value, origin)
        case ("availability", .array(let items)): return .array(items.map(expanded))
        case ("components", .object(let entries)): return .object(entries.map { JSONMember($0.key, expanded($0.value)) })
        default: return value
        }
    }

    private static func renamed(_ value: JSONValue, _ table: [String: String]) -> JSONValue {
        guard case .object(let members) = value else { return value }
        var kept: Set<String> = []
        return .object(members.compactMap { member in
            let key = table[member.key] ?? member.key
            return kept.insert(key).inserted ? JSONMember(key, member.value) : nil
        })
    }
}
