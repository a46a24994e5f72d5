/// Shelly devices answer `announce` on `shellies/command`: gen1 on
/// `shellies/announce` (and `shellies/<id>/announce`), gen2/3 on `shellies/announce`
/// and `<topic_prefix>/announce` with `gen`, `model`, `id`, `mac`. What a device can
/// switch is learned from its own topics: gen1 retains `shellies/<id>/relay/<n>` and
/// `shellies/<id>/light/<n>`; gen2/3 answer `status_update` on `<prefix>/command` with
/// `<prefix>/status/switch:<n>`, `light:<n>` and `cover:<n>` (gen1 rollers: `shellies/<id>/roller/<n>`).
///
/// Sources: Shelly gen1 API docs "MQTT" (shelly-api-docs.shelly.cloud/gen1/#mqtt-support);
/// gen2 docs "MQTT" component (shelly-api-docs.shelly.cloud/gen2/ComponentsAndServices/Mqtt);
/// ALLTERCO/shelly-script-examples `mqtt/mqtt-announce.shelly.js` (the announce payload
/// is `Shelly.GetDeviceInfo`); device payloads as captured in Luligu/matterbridge-shelly.
public enum ShellyAnnouncement {
    /// One device's announcement.
    public struct Device: Sendable, Equatable {
        public var id: String
        public var model: String
        public var mac: String
        public var generation: Int
        /// Where its own topics live: `shellies/<id>` for gen1, the topic prefix for gen2/3.
        public var prefix: String
        public var name: String?
        /// gen2+ `app` (`Plus1PM`, `PlusRGBWPM`): the model's name as the Shelly app writes it.
        public var app: String? = nil
    }

    /// The device an announcement names; `topic` is where it was heard.
    public static func device(_ payload: JSONValue, topic: String) -> Device? {
        guard let id = payload["id"]?.stringValue, !id.isEmpty, isSafeTopicLevel(id) else { return nil }
        let generation = Int(payload["gen"]?.scalarText ?? "1") ?? 1
        let model = payload["model"]?.stringValue ?? payload["app"]?.stringValue ?? "unknown model"
        let mac = payload["mac"]?.stringValue ?? ""
        var prefix = generation >= 2 ? id : "shellies/\(id)"
        if generation >= 2, topic != "shellies/announce", topic.hasSuffix("/announce") {
            prefix = String(topic.dropLast("/announce".count))
        }
        return Device(id: id, model: model, mac: mac, generation: generation, prefix: prefix, name: payload["name"]?.stringValue,
                      app: payload["app"]?.stringValue)
    }

    /// Where a gen2+ Shelly answers discover's RPC requests: a request published on
    /// `<prefix>/rpc` is answered on `<src>/rpc` (Shelly gen2 docs, "RPC Channels", MQTT).
    static let rpcSource = "switchboard-bridge-discover"
    public static let rpcReplyTopic = rpcSource + "/rpc"
    static let deviceInfoMethod = "Shelly.GetDeviceInfo"
    static let statusMethod = "Shelly.GetStatus"

    /// A harmless RPC request (it reads, never sets) to `<prefix>/rpc`.
    static func rpcRequest(prefix: String, method: String, id: Int) -> DiscoveryRequest {
        DiscoveryRequest(topic: "\(prefix)/rpc", payload: "{\"id\":\(id),\"src\":\"\(rpcSource)\",\"method\":\"\(method)\"}")
    }

    /// The prefix of a gen2+ device's `<prefix>/online` saying `true` (retained by the
    /// device at each connect, its factory setting), for a one-level prefix; else nil.
    static func onlinePrefix(topic: String, payload: [UInt8]) -> String? {
        guard topic.hasSuffix("/online"), payload.elementsEqual("true".utf8) else { return nil }
        let prefix = String(topic.dropLast("/online".count))
        return prefix.isEmpty || prefix.contains("/") ? nil : prefix
    }

    /// A gen2/3 device id and default topic prefix: `shelly<model>-<12 hex digits of
    /// its MAC>` (`shellyplus1pm-441793d69718`, `shellypro4pm-…`, `shelly1minig3-…`).
    static func looksLikeShellyId(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].hasPrefix("shelly"), parts[0].count <= 32,
              parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }) else { return false }
        return parts[1].utf8.count == 12 && parts[1].utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) }
    }

    /// The toggles of one device, from the topics heard under its prefix.
    static func toggles(_ device: Device, channels index: ChannelIndex, announcedOn topic: String) -> AnnouncementYield {
        var yield = AnnouncementYield()
        yield.announcedDeviceKeys = DeviceKeys.mac(device.mac)
        let channels = index.channels(of: device)
        let origin = "Shelly \(device.model) (gen\(device.generation), \(device.id)), \(topic)"
        let switchable = channels.filter { $0.kind != .cover }
        for channel in switchable {
            let base = label(of: device)
            let label = switchable.count > 1 ? "\(base) \(channel.index)" : base
            let kind = channel.kind == .light ? AnnouncedKind.light
                : AnnouncedKind.guess(from: [device.model, device.id, base], fallback: .switchRelay)
            yield.toggles.append(DiscoveredToggle(
                source: .shelly, deviceKeys: yield.announcedDeviceKeys, label: label, idHint: label, kind: kind,
                origin: origin, wiring: wiring(device, channel), presetHint: presetHint(device, channel)
            ))
        }
        let covers = channels.filter { $0.kind == .cover }
        for channel in covers {
            let base = device.name ?? device.id
            let label = covers.count > 1 ? "\(base) \(channel.index)" : base
            yield.toggles.append(DiscoveredToggle(
                source: .shelly, deviceKeys: yield.announcedDeviceKeys, label: label, idHint: label,
                kind: AnnouncedKind.cover(from: [base]), origin: origin, wiring: coverWiring(device, channel),
                presetHint: PresetChoice(preset: device.generation >= 2 ? .shellyPlusCover : .shellyRoller,
                                         name: device.generation >= 2 ? device.prefix : device.id,
                                         channel: channel.index == 0 ? nil : "\(channel.index)")
            ))
        }
        if channels.isEmpty {
            yield.skipped.append(SkippedThing(what: "Shelly \(device.id) (\(device.model))", reason: silenceReason(device, others: index.others(of: device))))
        }
        return yield
    }

    /// Why a device gave no channel: what it did say, and what to turn on.
    static func silenceReason(_ device: Device, others: [String]) -> String {
        if !others.isEmpty {
            return "its status lists no switch, light or cover (\(others.joined(separator: ", "))): a sensor or an input-only device"
        }
        if device.generation >= 2 {
            return "no status heard, though asked ('status_update' on \(device.prefix)/command, Shelly.GetStatus on \(device.prefix)/rpc): "
                + "turn on 'RPC over MQTT' (enable_rpc) or 'Generic status update over MQTT' in its MQTT settings, or try a longer --seconds"
        }
        return "no relay, light or roller state heard, though asked with 'update' on shellies/command: a sensor or an "
            + "input-only device (H&T, Flood, i3, Button1), or it did not answer in time (try a longer --seconds)"
    }

    /// The tile's name: the device's own name; else its id when the homeowner chose it
    /// (a custom MQTT id); else, for a factory id (`shellyplus1pm-441793d69718`), the model
    /// and the MAC's last six digits (`Shelly Plus1PM D69718`), which the app shows too.
    static func label(of device: Device) -> String {
        if let name = device.name, !name.isEmpty { return name }
        let mac = String(device.mac.uppercased().filter(\.isHexDigit).suffix(6))
        guard isFactoryId(device.id), mac.count == 6 else { return device.id }
        return "Shelly \(ShellyModelNames.name(model: device.model, app: device.app)) \(mac)"
    }

    /// A factory id: `shelly<model>-<6 or 12 hex digits of the MAC>` (gen1 `shellyswitch25-8CAAB5`,
    /// gen2+ `shellyplus1pm-441793d69718`).
    static func isFactoryId(_ id: String) -> Bool {
        guard let dash = id.lastIndex(of: "-"), id.hasPrefix("shelly") else { return false }
        let digits = id[id.index(after: dash)...]
        return (digits.count == 6 || digits.count == 12) && digits.allSatisfy(\.isHexDigit)
    }

    enum ChannelKind: Equatable { case relay, light, cover }

    struct Channel: Equatable {
        var kind: ChannelKind
        /// The component's word in its topics: `relay`, `switch`, `light`, `color`, `rgbw`, ...
        var component: String
        var index: Int
    }

    /// The channels whose state topics were heard, by device prefix: gen1
    /// `shellies/<id>/relay/<n>`, gen2/3 `<prefix>/status/switch:<n>` (and lights,
    /// covers alike). Each topic is read once, so thousands of devices cost linear time.
    struct ChannelIndex {
        private var gen1: [UTF8Key: [Channel]] = [:]
        private var gen2: [UTF8Key: [Channel]] = [:]
        /// A gen2+ prefix's other status components (`input:0`, `sys`), the first few.
        private var gen2Others: [UTF8Key: [String]] = [:]
        static let maxOthersNamed = 6
        static let gen1Kinds: [String: ChannelKind] = ["relay": .relay, "light": .light, "color": .light, "white": .light, "roller": .cover]
        static let gen2Kinds: [String: ChannelKind] = [
            "switch": .relay, "light": .light, "rgb": .light, "rgbw": .light, "cct": .light, "rgbcct": .light, "cover": .cover,
        ]

        init(topics: some Sequence<UTF8Key>) {
            let status = Array("/status".utf8)
            for topic in topics {
                let bytes = topic.bytes  // topics are bytes
                guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { continue }
                let last = bytes[(slash + 1)...]
                let rest = bytes[..<slash]
                let isStatus = rest.count > status.count && rest.suffix(status.count).elementsEqual(status)
                if isStatus, let colon = last.firstIndex(of: UInt8(ascii: ":")),
                   let kind = Self.gen2Kinds[String(decoding: last[..<colon], as: UTF8.self)],
                   let index = Self.channelNumber(last[(colon + 1)...]) {
                    let component = String(decoding: last[..<colon], as: UTF8.self)
                    gen2[Self.key(rest.dropLast(status.count)), default: []].append(Channel(kind: kind, component: component, index: index))
                } else if isStatus {
                    let prefix = Self.key(rest.dropLast(status.count))
                    if gen2Others[prefix, default: []].count < Self.maxOthersNamed {
                        gen2Others[prefix, default: []].append(String(decoding: last.prefix(32), as: UTF8.self))
                    }
                } else if let index = Self.channelNumber(last), let slash = rest.lastIndex(of: UInt8(ascii: "/")),
                          let kind = Self.gen1Kinds[String(decoding: rest[(slash + 1)...], as: UTF8.self)] {
                    let component = String(decoding: rest[(slash + 1)...], as: UTF8.self)
                    gen1[Self.key(rest[..<slash]), default: []].append(Channel(kind: kind, component: component, index: index))
                }
            }
        }

        func channels(of device: Device) -> [Channel] {
            let channels = (device.generation >= 2 ? gen2 : gen1)[UTF8Key(device.prefix)] ?? []
            return channels.sorted { ($0.index, $0.component) < ($1.index, $1.component) }
        }

        func others(of device: Device) -> [String] {
            device.generation >= 2 ? (gen2Others[UTF8Key(device.prefix)] ?? []).sorted() : []
        }

        private static func channelNumber(_ bytes: ArraySlice<UInt8>) -> Int? {
            guard let number = Int(String(decoding: bytes, as: UTF8.self)), (0...15).contains(number) else { return nil }
            return number
        }

        private static func key(_ bytes: ArraySlice<UInt8>) -> UTF8Key {
            UTF8Key(String(decoding: bytes, as: UTF8.self))
        }
    }

    static func presetHint(_ device: Device, _ channel: Channel) -> PresetChoice? {
        let preset: DevicePreset?
        if channel.kind == .light {
            preset = DevicePreset.shellyLightPreset(component: channel.component, generation: device.generation)
        } else {
            preset = device.generation >= 2 ? .shellyPlus : .shelly
        }
        return preset.map { PresetChoice(preset: $0, name: device.generation >= 2 ? device.prefix : device.id,
                                         channel: channel.index == 0 ? nil : "\(channel.index)") }
    }

    static func wiring(_ device: Device, _ channel: Channel) -> ToggleWiring {
        if device.generation >= 2 {
            let online = AvailabilitySource(topic: "\(device.prefix)/online", field: nil, availableValue: "true", unavailableValue: "false")
            let state = [StateSource(topic: "\(device.prefix)/status/\(channel.component):\(channel.index)", field: ["output"],
                                     onValue: "true", offValue: "false")]
            // A light is driven over RPC, as its preset does (`Light.Set`, `RGBW.Set`, ...).
            let command = channel.kind == .light
                ? DevicePreset.shellyPlusLight(id: device.prefix, lightId: Int64(channel.index), component: channel.component).command
                : ToggleCommand(topic: "\(device.prefix)/command/switch:\(channel.index)", payloadOn: "on", payloadOff: "off")
            return ToggleWiring(stateSources: state, command: command, availability: online)
        }
        let state = "\(device.prefix)/\(channel.component)/\(channel.index)"
        return ToggleWiring(
            stateSources: [StateSource(topic: state, field: nil, onValue: "on", offValue: "off")],
            command: ToggleCommand(topic: state + "/command", payloadOn: "on", payloadOff: "off"),
            availability: AvailabilitySource(topic: "\(device.prefix)/online", field: nil, availableValue: "true", unavailableValue: "false")
        )
    }

    /// A gen2/3 `cover:N` (state open/closed and the motion words, `current_pos`)
    /// or a gen1 roller (its position; the motion on `roller/N` is the preset's).
    static func coverWiring(_ device: Device, _ channel: Channel) -> ToggleWiring {
        let availability = AvailabilitySource(topic: "\(device.prefix)/online", field: nil, availableValue: "true", unavailableValue: "false")
        if device.generation >= 2 {
            let status = "\(device.prefix)/status/cover:\(channel.index)"
            return ToggleWiring(
                stateSources: [StateSource(topic: status, field: ["state"], onValue: "open", offValue: "closed", meanings: [
                    StateMeaning("opening", .opening), StateMeaning("closing", .closing), StateMeaning("stopped", .stopped),
                    StateMeaning("calibrating", .calibrating),
                ]), .position(topic: status, field: ["current_pos"])],
                command: ToggleCommand(topic: "\(device.prefix)/command/cover:\(channel.index)", payloadOn: "open", payloadOff: "close"),
                availability: availability, device: .cover
            )
        }
        let roller = "\(device.prefix)/roller/\(channel.index)"
        return ToggleWiring(stateSources: [.position(topic: roller + "/pos", field: nil)],
                            command: ToggleCommand(topic: roller + "/command", payloadOn: "open", payloadOff: "close"),
                            availability: availability, device: .cover)
    }

    /// A device id is used as a topic level: no wildcards, separators or NUL.
    static func isSafeTopicLevel(_ text: String) -> Bool {
        !text.contains { $0 == "/" || $0 == "+" || $0 == "#" || $0 == "\0" }
    }
}
