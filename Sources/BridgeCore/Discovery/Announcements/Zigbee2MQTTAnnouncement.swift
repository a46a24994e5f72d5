/// zigbee2mqtt's retained `<base>/bridge/devices` (and `<base>/bridge/groups`):
/// one toggle per `switch` or `light` expose with a settable binary `state`, and
/// per `cover` (settable `state` OPEN/CLOSE) and `lock` expose.
///
/// Source of the format: zigbee2mqtt.io `docs/guide/usage/mqtt_topics_and_messages.md`
/// and `docs/guide/usage/exposes.md` (access bit 2 = settable with `/set`).
public enum Zigbee2MQTTAnnouncement {
    public static let devicesSuffix = "/bridge/devices"
    static let groupsSuffix = "/bridge/groups"
    static let infoSuffix = "/bridge/info"

    /// The base topic of a `<base>/bridge/devices` topic (the base may contain `/`).
    public static func baseTopic(of topic: String, suffix: String = devicesSuffix) -> String? {
        guard topic.hasSuffix(suffix), topic.count > suffix.count else { return nil }
        return String(topic.dropLast(suffix.count))
    }

    /// The toggles of a `bridge/devices` payload; `version` is from `bridge/info` when heard.
    public static func devices(_ payload: JSONValue, base: String, version: String?) -> AnnouncementYield {
        let topic = base + devicesSuffix
        guard case .array(let devices) = payload else {
            return AnnouncementYield(skipped: [SkippedThing(what: topic, reason: "not a JSON list of devices")])
        }
        var yield = AnnouncementYield()
        for device in devices.prefix(maxDevices) { yield.append(self.device(device, base: base, topic: topic, version: version)) }
        if devices.count > maxDevices {
            yield.skipped.append(SkippedThing(what: topic, reason: "\(devices.count - maxDevices) devices beyond the first \(maxDevices) "
                + "(one zigbee network has a few hundred)"))
        }
        return yield
    }

    /// Every member of a `bridge/devices` list that `devices` reads (`device`, `closure`,
    /// `switchableState`, `reasonNoToggle`), for `JSONValue.parse(bytes:cutTo:)`: a key
    /// read there must be named here, or a list parsed to this shape loses it. zigbee2mqtt's
    /// exposes carry descriptions, units, ranges and endpoint clusters no toggle needs;
    /// devices beyond the first `maxDevices` are only counted.
    static let readShape: JSONShape = {
        let feature: JSONShape = .members([
            "type": nil, "name": nil, "access": nil, "property": nil, "value_on": nil, "value_off": nil, "values": nil, "endpoint": nil,
        ])
        let expose: JSONShape = .members(["type": nil, "name": nil, "endpoint": nil, "features": .elements(feature)])
        let definition: JSONShape = .members(["vendor": nil, "model": nil, "description": nil, "exposes": .elements(expose)])
        return .elements(.members([
            "friendly_name": nil, "ieee_address": nil, "type": nil, "disabled": nil, "supported": nil, "definition": definition,
        ]), first: maxDevices)
    }()

    /// Most devices of one `bridge/devices` list that are read (the rest are skipped and said).
    static let maxDevices = 1_000

    /// The friendly names of a `bridge/devices` payload (the first `maxDevices`), for
    /// the near misses of a silent `zigbee2mqtt:` action.
    static func friendlyNames(_ payload: JSONValue) -> [String] {
        guard case .array(let devices) = payload else { return [] }
        return devices.prefix(maxDevices).compactMap { device in
            guard let name = device["friendly_name"]?.stringValue, !name.isEmpty else { return nil }
            return name
        }
    }

    private static func device(_ device: JSONValue, base: String, topic: String, version: String?) -> AnnouncementYield {
        guard let name = device["friendly_name"]?.stringValue, !name.isEmpty else { return AnnouncementYield() }
        let ieee = device["ieee_address"]?.stringValue?.lowercased() ?? ""
        var yield = AnnouncementYield()
        if !ieee.isEmpty { yield.announcedDeviceKeys.insert("ieee:" + ieee) }
        let what = "zigbee2mqtt device '\(name)'"
        if device["type"]?.stringValue == "Coordinator" { return yield }
        if device["disabled"]?.boolValue == true {
            yield.skipped.append(SkippedThing(what: what, reason: "disabled in zigbee2mqtt"))
            return yield
        }
        guard device["supported"]?.boolValue != false, let definition = device["definition"], definition != .null else {
            yield.skipped.append(SkippedThing(what: what, reason: "not supported by zigbee2mqtt (no definition)"))
            return yield
        }
        let vendor = definition["vendor"]?.stringValue ?? "unknown vendor"
        let model = definition["model"]?.stringValue ?? "unknown model"
        let description = definition["description"]?.stringValue ?? ""
        let origin = "\(vendor) \(model)" + (description.isEmpty ? "" : " (\(description))")
            + ", \(topic)" + (version.map { " (zigbee2mqtt \($0))" } ?? "")
        guard case .array(let exposes)? = definition["exposes"] else {
            yield.skipped.append(SkippedThing(what: what, reason: "announces no exposes"))
            return yield
        }
        let switchable = exposes.compactMap { switchableState(of: $0) }
        // A device never renamed is called by its IEEE address: its vendor and model read better.
        let deviceLabel = name.lowercased() == ieee && !ieee.isEmpty ? "\(vendor) \(model)" : name
        for state in switchable {
            let label = switchable.count > 1 ? "\(deviceLabel) \(state.endpoint?.uppercased() ?? state.property)" : deviceLabel
            let kind = state.isLight ? AnnouncedKind.light : AnnouncedKind.guess(from: [description, name], fallback: .switchRelay)
            yield.toggles.append(DiscoveredToggle(
                source: .zigbee2mqtt, deviceKeys: ieee.isEmpty ? [] : ["ieee:" + ieee], label: label,
                idHint: label, kind: kind, origin: origin,
                wiring: wiring(base: base, name: name, state: state),
                presetHint: state.valueOn == "ON" && state.valueOff == "OFF" && state.property == "state" + (state.endpoint.map { "_" + $0 } ?? "")
                    ? PresetChoice(preset: .zigbee2mqtt, name: name, channel: state.endpoint) : nil
            ))
        }
        let closures = exposes.compactMap { closure(of: $0) }
        for closure in closures {
            let count = switchable.count + closures.count
            let label = count > 1 ? "\(deviceLabel) \(closure.state.endpoint?.uppercased() ?? closure.state.property)" : deviceLabel
            let kind = closure.device == .lock ? AnnouncedKind.lock : AnnouncedKind.cover(from: [description, name])
            let preset: DevicePreset = closure.device == .lock ? .zigbee2mqttLock : .zigbee2mqttCover
            let fitsPreset = closure.state.property == "state" + (closure.state.endpoint.map { "_" + $0 } ?? "")
            yield.toggles.append(DiscoveredToggle(
                source: .zigbee2mqtt, deviceKeys: ieee.isEmpty ? [] : ["ieee:" + ieee], label: label,
                idHint: label, kind: kind, origin: origin, wiring: wiring(base: base, name: name, closure: closure),
                presetHint: fitsPreset ? PresetChoice(preset: preset, name: name, channel: closure.state.endpoint) : nil
            ))
        }
        if switchable.isEmpty, closures.isEmpty {
            yield.skipped.append(SkippedThing(what: "\(what) (\(vendor) \(model))", reason: reasonNoToggle(exposes)))
        } else {
            // A device with a light and a fan (a ceiling fan's controller) makes the light a tile: the fan is said.
            for special in untoggled where exposes.contains(where: { $0["type"]?.stringValue == special }) {
                yield.skipped.append(SkippedThing(what: "\(what) (\(vendor) \(model)), its \(special)",
                                                  reason: "a \(special): not an on/off toggle (its lights and switches are actions)"))
            }
        }
        return yield
    }

    /// Expose types beside a device's lights and switches that become no tile.
    static let untoggled = ["climate", "fan"]

    /// A cover (settable `state` OPEN/CLOSE, maybe a `position`) or a lock
    /// (settable binary `state`, LOCK/UNLOCK) expose: `exposes.ts` `Cover`, `Lock`.
    struct Closure {
        var device: TileDevice
        var state: SwitchableState
        var positionProperty: String?
    }

    static func closure(of expose: JSONValue) -> Closure? {
        guard let type = expose["type"]?.stringValue, type == "cover" || type == "lock",
              case .array(let features)? = expose["features"] else { return nil }
        let endpoint = expose["endpoint"]?.stringValue
        func settable(_ feature: JSONValue) -> Bool {
            if case .int(let access)? = feature["access"] { return access & 2 != 0 }
            return false
        }
        guard let state = features.first(where: { $0["name"]?.stringValue == "state" && settable($0) }),
              let property = state["property"]?.stringValue, !property.isEmpty else { return nil }
        if type == "lock" {
            guard state["type"]?.stringValue == "binary", let on = state["value_on"]?.stringValue,
                  let off = state["value_off"]?.stringValue else { return nil }
            return Closure(device: .lock, state: SwitchableState(property: property, valueOn: on, valueOff: off, endpoint: endpoint, isLight: false))
        }
        guard case .array(let values)? = state["values"], values.contains(.string("OPEN")), values.contains(.string("CLOSE")) else { return nil }
        let position = features.first { $0["name"]?.stringValue == "position" }?["property"]?.stringValue
        return Closure(device: .cover, state: SwitchableState(property: property, valueOn: "OPEN", valueOff: "CLOSE", endpoint: endpoint, isLight: false),
                       positionProperty: position)
    }

    static func wiring(base: String, name: String, closure: Closure) -> ToggleWiring {
        var wiring = wiring(base: base, name: name, state: closure.state)
        wiring.device = closure.device
        if closure.device == .cover {
            wiring.stateSources[0].meanings = [StateMeaning("STOP", .stopped)]
            if let position = closure.positionProperty { wiring.stateSources.append(.position(topic: "\(base)/\(name)", field: [position])) }
        }
        return wiring
    }

    /// A settable on/off `state` of a switch or light expose.
    struct SwitchableState {
        var property: String
        var valueOn: String
        var valueOff: String
        var endpoint: String?
        var isLight: Bool
    }

    static func switchableState(of expose: JSONValue) -> SwitchableState? {
        guard let type = expose["type"]?.stringValue, type == "switch" || type == "light",
              case .array(let features)? = expose["features"] else { return nil }
        for feature in features where feature["type"]?.stringValue == "binary" && feature["name"]?.stringValue == "state" {
            guard case .int(let access)? = feature["access"], access & 2 != 0,
                  let property = feature["property"]?.stringValue, !property.isEmpty,
                  let valueOn = feature["value_on"]?.stringValue, let valueOff = feature["value_off"]?.stringValue
            else { continue }
            let endpoint = expose["endpoint"]?.stringValue ?? feature["endpoint"]?.stringValue
            return SwitchableState(property: property, valueOn: valueOn, valueOff: valueOff, endpoint: endpoint, isLight: type == "light")
        }
        return nil
    }

    static func wiring(base: String, name: String, state: SwitchableState) -> ToggleWiring {
        let device = "\(base)/\(name)"
        let field = state.property
        return ToggleWiring(
            stateSources: [StateSource(topic: device, field: [field], onValue: state.valueOn, offValue: state.valueOff)],
            command: ToggleCommand(
                topic: "\(device)/set",
                payloadOn: JSONValue.object([JSONMember(field, .string(state.valueOn))]).serialized(),
                payloadOff: JSONValue.object([JSONMember(field, .string(state.valueOff))]).serialized()
            ),
            availability: AvailabilitySource(topic: "\(device)/availability", field: ["state"],
                                             availableValue: "online", unavailableValue: "offline")
        )
    }

    private static func reasonNoToggle(_ exposes: [JSONValue]) -> String {
        let types = exposes.compactMap { $0["type"]?.stringValue }
        for special in ["climate", "fan"] where types.contains(special) {
            return "a \(special): not an on/off toggle"
        }
        let names = exposes.compactMap { $0["name"]?.stringValue ?? $0["type"]?.stringValue }.prefix(6)
        return "no switch or light to toggle (exposes \(names.joined(separator: ", ")))"
    }

    /// `bridge/groups`: every group as an optional extra (commented out in the file).
    public static func groups(_ payload: JSONValue, base: String) -> AnnouncementYield {
        guard case .array(let groups) = payload else { return AnnouncementYield() }
        var yield = AnnouncementYield()
        for group in groups {
            guard let name = group["friendly_name"]?.stringValue, !name.isEmpty else { continue }
            let state = SwitchableState(property: "state", valueOn: "ON", valueOff: "OFF", endpoint: nil, isLight: false)
            yield.extras.append(DiscoveredToggle(
                source: .zigbee2mqtt, deviceKeys: [], label: name, idHint: name,
                kind: AnnouncedKind.guess(from: [name], fallback: .light),
                origin: "zigbee2mqtt group \(group["id"]?.scalarText ?? "?"), \(base + groupsSuffix)",
                wiring: wiring(base: base, name: name, state: state)
            ))
        }
        return yield
    }
}
