/// Tasmota's native discovery, retained on `tasmota/discovery/<MAC>/config`: one
/// toggle per relay (`rl[i]` 1) or light (`rl[i]` 2), a cover per shutter (`sho`), topics built from the
/// FullTopic tokens.
///
/// Source of the format: arendst/Tasmota `tasmota/tasmota_xdrv_driver/xdrv_12_discovery.ino`
/// (`TasDiscoverMessage`); the FullTopic tokens as emontnemery/hatasmota `utils.py`
/// substitutes them (`%hostname%`, `%id%` = last 6 of the MAC, `%prefix%`, `%topic%`).
public enum TasmotaAnnouncement {
    static let topicPrefix = "tasmota/discovery/"
    static let topicSuffix = "/config"

    /// The MAC of a `tasmota/discovery/<MAC>/config` topic.
    public static func mac(of topic: String) -> String? {
        guard topic.hasPrefix(topicPrefix), topic.hasSuffix(topicSuffix) else { return nil }
        let mac = topic.dropFirst(topicPrefix.count).dropLast(topicSuffix.count)
        guard !mac.isEmpty, !mac.contains("/") else { return nil }
        return String(mac)
    }

    public static func toggles(_ config: JSONValue, topic: String) -> AnnouncementYield {
        guard let fields = Fields(config) else {
            return AnnouncementYield(skipped: [SkippedThing(what: topic, reason: "not a Tasmota discovery config (needs t, ft, tp, rl)")])
        }
        var yield = AnnouncementYield()
        yield.announcedDeviceKeys = fields.deviceKeys
        if fields.relaysBeyondMaximum > 0 {
            yield.skipped.append(SkippedThing(what: "Tasmota '\(fields.deviceName)'", reason: "\(fields.relaysBeyondMaximum) relay(s) "
                + "beyond the \(Fields.maxRelays) Tasmota has at most"))
        }
        let relayCount = fields.relays.filter { $0 != 0 }.count
        for (index, relay) in fields.relays.enumerated() where relay != 0 {
            let label = fields.friendlyName(index)
            switch relay {
            case 1, 2:
                // SetOption30 1: the owner declared every relay a light.
                let kind = relay == 2 || fields.relaysAreLights ? AnnouncedKind.light
                    : AnnouncedKind.guess(from: [label, fields.module], fallback: .switchRelay)
                yield.toggles.append(DiscoveredToggle(
                    source: .tasmota, deviceKeys: fields.deviceKeys, label: label, idHint: label, kind: kind,
                    origin: "Tasmota \(fields.version) on \(fields.module), host \(fields.hostName), \(topic)",
                    wiring: fields.wiring(power: relayCount == 1 ? "POWER" : "POWER\(index + 1)"),
                    presetHint: fields.presetHint(channel: relayCount == 1 ? nil : "\(index + 1)")
                ))
            case 3:
                continue   // a shutter's relay: the shutter is the tile, below
            default:
                yield.skipped.append(SkippedThing(what: "Tasmota '\(fields.deviceName)' relay \(index + 1)", reason: "unknown relay type \(relay)"))
            }
        }
        yield.append(shutters(fields, topic: topic))
        if fields.isFan {
            yield.skipped.append(SkippedThing(what: "Tasmota '\(fields.deviceName)' fan", reason: "fan speeds: not an on/off toggle"))
        }
        if relayCount == 0 {
            yield.skipped.append(SkippedThing(what: "Tasmota '\(fields.deviceName)' (\(fields.module))", reason: "no relay or light (a sensor)"))
        }
        return yield
    }

    /// One cover per shutter: each shutter's two relays are `rl` 3
    /// (arendst/Tasmota xdrv_12_discovery.ino, `TasDiscoverMessage`). Only as the preset: its open and close are two
    /// empty commands on two topics, which explicit keys cannot say.
    static func shutters(_ fields: Fields, topic: String) -> AnnouncementYield {
        var yield = AnnouncementYield()
        guard fields.shutterCount > 0 else { return yield }
        for shutter in 1...fields.shutterCount {
            let label = fields.shutterCount == 1 ? fields.deviceName : "\(fields.deviceName) shutter \(shutter)"
            guard let hint = fields.presetHint(channel: shutter == 1 ? nil : "\(shutter)", preset: .tasmotaShutter) else {
                yield.skipped.append(SkippedThing(what: "Tasmota '\(fields.deviceName)' shutter \(shutter)",
                                                  reason: "its topic prefixes are not cmnd, stat, tele: write tasmota_shutter by hand"))
                continue
            }
            let expansion = DevicePreset.tasmotaShutter(topic: fields.topic, channel: .index(Int64(shutter)),
                                                        fullTopic: hint.fullTopic ?? DevicePreset.defaultTasmotaFullTopic)
            // `sho` bit 0 is ShutterInvert (xdrv_27_shutter.ino `shutter_options & 1`): it reports 100 - position.
            var position = expansion.stateSources[0]
            position.isInverted = fields.isShutterInverted(shutter)
            yield.toggles.append(DiscoveredToggle(
                source: .tasmota, deviceKeys: fields.deviceKeys, label: label, idHint: label, kind: AnnouncedKind.cover(from: [label, fields.module]),
                origin: "Tasmota \(fields.version) on \(fields.module), host \(fields.hostName), \(topic)",
                wiring: ToggleWiring(stateSources: [position], command: expansion.command,
                                     availability: expansion.availability, device: .cover),
                presetHint: PresetChoice(preset: .tasmotaShutter, name: hint.name, channel: hint.channel, fullTopic: hint.fullTopic)
            ))
        }
        return yield
    }

    /// The keys of the discovery config the bridge needs.
    struct Fields {
        var topic: String
        var fullTopic: String
        var prefixes: [String]
        /// Real Tasmota announces at most 32 relays (MAX_RELAYS_SET); the rest are not read.
        static let maxRelays = 32
        var relays: [Int64]
        /// Shutters present (relays of type 3, two each), at most `maxShutters` (Tasmota has 16 on an ESP32).
        var shutterCount = 0
        static let maxShutters = 16
        /// Switchable relays announced beyond `maxRelays`, skipped and said.
        var relaysBeyondMaximum: Int
        var friendlyNames: [String?]
        var stateTexts: [String]
        var online: String
        var offline: String
        var hostName: String
        var mac: String
        var deviceName: String
        var module: String
        var version: String
        var isFan: Bool
        var relaysAreLights: Bool
        /// `sho`: each shutter's options (ShutterInvert is bit 0, ShutterLock bit 1, ...).
        var shutterOptions: [Int64] = []

        init?(_ config: JSONValue) {
            guard let topic = config["t"]?.stringValue, !topic.isEmpty,
                  let fullTopic = config["ft"]?.stringValue, !fullTopic.isEmpty,
                  case .array(let prefixValues)? = config["tp"], prefixValues.count >= 3,
                  case .array(let relayValues)? = config["rl"] else { return nil }
            self.topic = topic
            self.fullTopic = fullTopic
            prefixes = prefixValues.map { $0.stringValue ?? "" }
            relays = relayValues.prefix(Self.maxRelays).map { if case .int(let value) = $0 { value } else { 0 } }
            relaysBeyondMaximum = relayValues.dropFirst(Self.maxRelays).filter { $0 != .int(0) }.count
            if case .array(let names)? = config["fn"] { friendlyNames = names.prefix(Self.maxRelays).map(\.stringValue) } else { friendlyNames = [] }
            if case .array(let texts)? = config["state"] { stateTexts = texts.map { $0.stringValue ?? "" } } else { stateTexts = [] }
            if stateTexts.count < 2 || stateTexts[0].isEmpty || stateTexts[1].isEmpty { stateTexts = ["OFF", "ON"] }
            online = config["onln"]?.stringValue ?? "Online"
            offline = config["ofln"]?.stringValue ?? "Offline"
            hostName = config["hn"]?.stringValue ?? ""
            mac = (config["mac"]?.stringValue ?? "").uppercased()
            deviceName = config["dn"]?.stringValue ?? topic
            module = config["md"]?.stringValue ?? "unknown module"
            version = config["sw"]?.stringValue ?? "?"
            isFan = config["if"]?.scalarText == "1"
            relaysAreLights = config["so"]?["30"]?.scalarText == "1"
            // Two relays per shutter; `sho` is no count (9.3.0 announces four entries on a plain relay, DiscoveryFixtures).
            shutterCount = min((relays.filter { $0 == 3 }.count + 1) / 2, Self.maxShutters)
            if case .array(let options)? = config["sho"] {
                shutterOptions = options.prefix(Self.maxShutters).map { if case .int(let value) = $0 { value } else { 0 } }
            }
        }

        /// Whether shutter `number` (1-based) reports inverted positions (`ShutterInvert 1`).
        func isShutterInverted(_ number: Int) -> Bool {
            number >= 1 && number <= shutterOptions.count && shutterOptions[number - 1] & 1 == 1
        }

        var deviceKeys: Set<String> { DeviceKeys.mac(mac) }

        func friendlyName(_ index: Int) -> String {
            if index < friendlyNames.count, let name = friendlyNames[index], !name.isEmpty { return name }
            return "\(deviceName) \(index + 1)"
        }

        /// The FullTopic with its tokens filled in for one prefix (`cmnd`, `stat`, `tele`).
        func fullTopic(prefix: String) -> String {
            var text = fullTopic
            text = text.replacingAll("%hostname%", with: hostName)
            text = text.replacingAll("%id%", with: String(mac.suffix(6)))
            text = text.replacingAll("%prefix%", with: prefix)
            text = text.replacingAll("%topic%", with: topic)
            return text
        }

        /// The tasmota preset, with the FullTopic when changed (its `%hostname%` and `%id%` filled in).
        func presetHint(channel: String?, preset: DevicePreset = .tasmota) -> PresetChoice? {
            guard prefixes.prefix(3) == ["cmnd", "stat", "tele"] else { return nil }
            let device = fullTopic.replacingAll("%hostname%", with: hostName).replacingAll("%id%", with: String(mac.suffix(6)))
            let (off, on) = (stateTexts[0], stateTexts[1])
            let custom = on.lowercased() != "on" || off.lowercased() != "off"
            return PresetChoice(preset: preset, name: topic, channel: channel,
                                fullTopic: device == DevicePreset.defaultTasmotaFullTopic ? nil : device,
                                stateValues: custom ? PresetChoice.StateValues(on: on, off: off) : nil)
        }

        /// The device reports its StateText1/StateText2 (`AUS`/`AN`), but its command
        /// parser takes only ON/OFF/TRUE/FALSE/TOGGLE/BLINK and the build's own language
        /// words, never the state texts (arendst/Tasmota
        /// `tasmota/tasmota_support/support.ino`, `GetStateNumber` over `kOptions`):
        /// the command is always ON/OFF.
        func wiring(power: String) -> ToggleWiring {
            let (off, on) = (stateTexts[0], stateTexts[1])
            let stat = fullTopic(prefix: prefixes[1])
            return ToggleWiring(
                stateSources: [
                    StateSource(topic: stat + power, field: nil, onValue: on, offValue: off),
                    StateSource(topic: stat + "RESULT", field: [power], onValue: on, offValue: off),
                ],
                command: ToggleCommand(topic: fullTopic(prefix: prefixes[0]) + power, payloadOn: "ON", payloadOff: "OFF"),
                availability: AvailabilitySource(topic: fullTopic(prefix: prefixes[2]) + "LWT", field: nil,
                                                 availableValue: online, unavailableValue: offline)
            )
        }
    }
}
