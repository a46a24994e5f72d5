/// Shelly devices answer `announce` on `shellies/command`: gen1 on
/// `shellies/announce` (and `shellies/<id>/announce`), gen2/3 on `shellies/announce`
/// and `<topic_prefix>/announce` with `gen`, `model`, `id`, `mac`. What a device can
/// switch is learned from its own topics: gen1 retains `shellies/<id>/relay/<n>` and
/// `shellies/<id>/light/<n>`; gen2/3 answer `status_update` on `<prefix>/command` with
/// `<prefix>/status/switch:<n>` and `light:<n>`.
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
        return Device(id: id, model: model, mac: mac, generation: generation, prefix: prefix, name: payload["name"]?.stringValue)
    }

    /// The harmless request a gen2/3 device answers with the status of every component;
    /// nil unless its prefix looks like a Shelly's (whoever announces must not choose
    /// where discover publishes).
    public static func statusRequest(for device: Device) -> DiscoveryRequest? {
        guard device.generation >= 2, looksLikeShellyId(device.prefix) else { return nil }
        return DiscoveryRequest(topic: "\(device.prefix)/command", payload: "status_update")
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
            let base = device.name ?? device.id
            let label = switchable.count > 1 ? "\(base) \(channel.index)" : base
            let kind = channel.kind == .light ? DeviceKind.light
                : DeviceKind.guess(from: [device.model, device.id, base], fallback: .switchRelay)
            yield.toggles.append(DiscoveredToggle(
                source: .shelly, deviceKeys: yield.announcedDeviceKeys, label: label, idHint: label, kind: kind,
                origin: origin, wiring: wiring(device, channel), presetHint: presetHint(device, channel)
            ))
        }
        for channel in channels where channel.kind == .cover {
            yield.skipped.append(SkippedThing(what: "Shelly \(device.id) roller \(channel.index)", reason: "a cover: not an on/off toggle"))
        }
        if channels.isEmpty {
            let hint = device.generation >= 2
                ? "no switch or light status heard (turn on 'Generic status update over MQTT' and 'MQTT Control')"
                : "no relay, light or roller state heard, though asked with 'update' on shellies/command: a sensor or an "
                    + "input-only device (H&T, Flood, i3, Button1), or it did not answer in time (try a longer --seconds)"
            yield.skipped.append(SkippedThing(what: "Shelly \(device.id) (\(device.model))", reason: hint))
        }
        return yield
    }

    enum ChannelKind: Equatable { case relay, light, cover }

    struct Channel: Equatable {
        var kind: ChannelKind
        var index: Int
    }

    /// The channels whose state topics were heard, by device prefix: gen1
    /// `shellies/<id>/relay/<n>`, gen2/3 `<prefix>/status/switch:<n>` (and lights,
    /// covers alike). Each topic is read once, so thousands of devices cost linear time.
    struct ChannelIndex {
        private var gen1: [UTF8Key: [Channel]] = [:]
        private var gen2: [UTF8Key: [Channel]] = [:]
        static let gen1Kinds: [String: ChannelKind] = ["relay": .relay, "light": .light, "roller": .cover]
        static let gen2Kinds: [String: ChannelKind] = ["switch": .relay, "light": .light, "cover": .cover]

        init(topics: some Sequence<UTF8Key>) {
            let status = Array("/status".utf8)
            for topic in topics {
                let bytes = topic.bytes  // topics are bytes
                guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { continue }
                let last = bytes[(slash + 1)...]
                let rest = bytes[..<slash]
                if let colon = last.firstIndex(of: UInt8(ascii: ":")), rest.count > status.count, rest.suffix(status.count).elementsEqual(status),
                   let kind = Self.gen2Kinds[String(decoding: last[..<colon], as: UTF8.self)],
                   let index = Self.channelNumber(last[(colon + 1)...]) {
                    gen2[Self.key(rest.dropLast(status.count)), default: []].append(Channel(kind: kind, index: index))
                } else if let index = Self.channelNumber(last), let slash = rest.lastIndex(of: UInt8(ascii: "/")),
                          let kind = Self.gen1Kinds[String(decoding: rest[(slash + 1)...], as: UTF8.self)] {
                    gen1[Self.key(rest[..<slash]), default: []].append(Channel(kind: kind, index: index))
                }
            }
        }

        func channels(of device: Device) -> [Channel] {
            let channels = (device.generation >= 2 ? gen2 : gen1)[UTF8Key(device.prefix)] ?? []
            return channels.sorted { ($0.index, "\($0.kind)") < ($1.index, "\($1.kind)") }
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
        let preset: DevicePreset
        let name: String
        if device.generation >= 2 {
            preset = channel.kind == .light ? .shellyPlusLight : .shellyPlus
            name = device.prefix
        } else {
            preset = channel.kind == .light ? .shellyLight : .shelly
            name = device.id
        }
        return PresetChoice(preset: preset, name: name, channel: channel.index == 0 ? nil : "\(channel.index)")
    }

    static func wiring(_ device: Device, _ channel: Channel) -> ToggleWiring {
        let component = channel.kind == .light ? "light" : "switch"
        if device.generation >= 2 {
            return ToggleWiring(
                stateSources: [StateSource(topic: "\(device.prefix)/status/\(component):\(channel.index)", field: ["output"],
                                           onValue: "true", offValue: "false")],
                command: ToggleCommand(topic: "\(device.prefix)/command/\(component):\(channel.index)", payloadOn: "on", payloadOff: "off"),
                availability: AvailabilitySource(topic: "\(device.prefix)/online", field: nil, availableValue: "true", unavailableValue: "false")
            )
        }
        let gen1Component = channel.kind == .light ? "light" : "relay"
        let state = "\(device.prefix)/\(gen1Component)/\(channel.index)"
        return ToggleWiring(
            stateSources: [StateSource(topic: state, field: nil, onValue: "on", offValue: "off")],
            command: ToggleCommand(topic: state + "/command", payloadOn: "on", payloadOff: "off"),
            availability: AvailabilitySource(topic: "\(device.prefix)/online", field: nil, availableValue: "true", unavailableValue: "false")
        )
    }

    /// A device id is used as a topic level: no wildcards, separators or NUL.
    static func isSafeTopicLevel(_ text: String) -> Bool {
        !text.contains { $0 == "/" || $0 == "+" || $0 == "#" || $0 == "\0" }
    }
}
