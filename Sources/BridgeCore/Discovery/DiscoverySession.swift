/// Discovery as a value: the topics to listen to, the harmless requests to
/// publish, every message heard (the latest per topic, bounded), and at the end
/// the toggles and what was skipped. No I/O: the shell feeds it messages.
public struct DiscoverySession: Sendable {
    /// At most this many topics are remembered; later new topics are dropped.
    public static let maxTopics = 20_000
    /// A payload larger than this is dropped unread (a zigbee2mqtt `bridge/devices` of
    /// a few hundred devices is a few MB); what discover holds and parses stays under
    /// 64 MB (BENCHMARKS.md, "discover on hostile announcements").
    public static let maxPayloadBytes = 4 << 20
    /// All payloads together stay under this.
    public static let maxTotalBytes = 16 << 20
    /// A Shelly announcement (`Shelly.GetDeviceInfo`, a few hundred bytes) larger than
    /// this is kept but not read as one when it arrives.
    static let maxAnnounceBytes = 64 << 10

    public let options: DiscoveryOptions
    /// Keyed by the topic's bytes (`UTF8Key`), as the broker keys topics: two
    /// announcements on `café` NFC and NFD are two devices, neither lost.
    private(set) var latest: [UTF8Key: [UInt8]] = [:]
    private var totalBytes = 0
    /// The prefixes asked for their status.
    private var requested: Set<UTF8Key> = []
    /// Messages dropped by the bounds (reported in the file's header).
    public private(set) var droppedMessages = 0

    public init(options: DiscoveryOptions) {
        self.options = options
    }

    /// The topic filters to subscribe to.
    public var subscriptions: Set<String> {
        let ha = options.homeAssistantPrefix
        return [
            "+/bridge/devices", "+/+/bridge/devices", "+/bridge/groups", "+/+/bridge/groups", "+/bridge/info", "+/+/bridge/info",
            "tasmota/discovery/+/config",
            "\(ha)/+/+/config", "\(ha)/+/+/+/config",
            "shellies/announce", "shellies/+/announce", "+/announce", "+/+/announce",
            "shellies/+/relay/+", "shellies/+/light/+", "shellies/+/color/+", "shellies/+/white/+", "shellies/+/roller/+",
            "+/status/+", "+/+/status/+", "+/online", ShellyAnnouncement.rpcReplyTopic,
        ]
    }

    /// What to publish once connected: every gen1 Shelly (and a gen2/3 running the announce
    /// script) answers `announce` with its announcement, and every gen1 `update` with its
    /// relay, light and roller states, which a gen1 on its factory settings (retain off)
    /// otherwise publishes only when they change (Shelly gen1 API docs, "MQTT":
    /// `shellies/command` takes `announce`, `update` and `update_fw`).
    public var initialRequests: [DiscoveryRequest] {
        [DiscoveryRequest(topic: "shellies/command", payload: "announce"), DiscoveryRequest(topic: "shellies/command", payload: "update")]
    }

    /// Takes one message; returns requests it calls for (a gen2+ Shelly asked for its status).
    public mutating func receive(_ message: DiscoveryMessage) -> [DiscoveryRequest] {
        // The bounds apply before any parsing: an oversized announcement is never read.
        guard message.payload.count <= Self.maxPayloadBytes else {
            droppedMessages += 1
            return []
        }
        if message.topic.utf8.elementsEqual(ShellyAnnouncement.rpcReplyTopic.utf8) {
            receiveRPCReply(message.payload)
            return []
        }
        if let prefix = ShellyAnnouncement.onlinePrefix(topic: message.topic, payload: message.payload) {
            return ask(prefix, announced: false)
        }
        let json = message.topic.hasSuffix("/announce") && message.payload.count <= Self.maxAnnounceBytes
            ? try? JSONValue.parse(bytes: message.payload) : nil
        let device = json.flatMap { ShellyAnnouncement.device($0, topic: message.topic) }
        // Every Shelly answers on the one shared topic: keep each device's answer.
        let isShared = message.topic.utf8.elementsEqual(Self.sharedShellyTopic.utf8)
        let key = UTF8Key(isShared ? Self.sharedShellyTopic + "\u{0}" + (device?.id ?? "") : message.topic)
        guard remember(message, as: key), let device, device.generation >= 2 else { return [] }
        return ask(device.prefix, announced: true)
    }

    /// The requests that make a gen2+ Shelly say what it has: `status_update` (answered
    /// when 'Generic status update' is on) and, over RPC (on by default), `Shelly.GetStatus`;
    /// for one found only by its retained `<prefix>/online`, `Shelly.GetDeviceInfo` too.
    /// Once per prefix, only to a prefix shaped like a Shelly id, at most `maxStatusRequests`.
    private mutating func ask(_ prefix: String, announced: Bool) -> [DiscoveryRequest] {
        let key = UTF8Key(prefix)
        let isNew = !requested.contains(key)
        guard ShellyAnnouncement.looksLikeShellyId(prefix), !isNew || requested.count < Self.maxStatusRequests else {
            if announced { unaskedShellies.insert(key) }
            return []
        }
        var requests: [DiscoveryRequest] = []
        // Announced after its `online` was heard: it is asked for `status_update` still.
        if announced, statusUpdated.insert(key).inserted {
            requests.append(DiscoveryRequest(topic: "\(prefix)/command", payload: "status_update"))
        }
        guard isNew else { return requests }
        requested.insert(key)
        if !announced {
            foundOnline.insert(key)
            requests.append(rpcRequest(prefix, method: ShellyAnnouncement.deviceInfoMethod))
        }
        requests.append(rpcRequest(prefix, method: ShellyAnnouncement.statusMethod))
        return requests
    }

    /// The prefixes sent `status_update` (a subset of `requested`).
    private var statusUpdated: Set<UTF8Key> = []

    private mutating func rpcRequest(_ prefix: String, method: String) -> DiscoveryRequest {
        let id = rpcAsked.count + 1
        rpcAsked[id] = (prefix, method)
        return ShellyAnnouncement.rpcRequest(prefix: prefix, method: method, id: id)
    }

    /// An answer on `rpcReplyTopic` to a request sent: `Shelly.GetDeviceInfo`'s result is
    /// kept as the device's announcement would be, `Shelly.GetStatus`'s as the status
    /// topics 'Generic status update' publishes (`<prefix>/status/<component>`).
    private mutating func receiveRPCReply(_ payload: [UInt8]) {
        guard payload.count <= Self.maxAnnounceBytes, let json = try? JSONValue.parse(bytes: payload),
              let id = json["id"]?.scalarText.flatMap({ Int($0) }), let asked = rpcAsked[id],
              let result = json["result"], case .object(let members) = result else { return }
        if asked.method == ShellyAnnouncement.deviceInfoMethod {
            let key = UTF8Key(asked.prefix + "/announce")
            guard latest[key] == nil else { return }  // its own announcement says the same
            if remember(DiscoveryMessage(topic: key.text, text: result.serialized()), as: key) { answeredOverRPC.insert(key) }
            return
        }
        for member in members.prefix(Self.maxStatusComponents) where ShellyAnnouncement.isSafeTopicLevel(member.key) && !member.key.isEmpty {
            let key = UTF8Key("\(asked.prefix)/status/\(member.key)")
            _ = remember(DiscoveryMessage(topic: key.text, text: member.value.serialized()), as: key)
        }
    }

    /// Most components of one `Shelly.GetStatus` answer kept (a Pro 4PM has about twenty).
    static let maxStatusComponents = 64
    /// The RPC requests sent, by id: the prefix asked and the method.
    private var rpcAsked: [Int: (prefix: String, method: String)] = [:]
    /// Prefixes found only by their retained `<prefix>/online` and asked over RPC.
    private var foundOnline: Set<UTF8Key> = []
    /// Announcements that are a device's `Shelly.GetDeviceInfo` answer.
    private var answeredOverRPC: Set<UTF8Key> = []

    /// Most gen2/3 Shellies asked for their status (a house has a few dozen).
    public static let maxStatusRequests = 256
    /// Gen2/3 announcements not asked for their status (prefix unlike a Shelly's, or
    /// beyond `maxStatusRequests`), said in the result (at most `maxTopics`).
    private var unaskedShellies: Set<UTF8Key> = []

    static let sharedShellyTopic = "shellies/announce"

    private mutating func remember(_ message: DiscoveryMessage, as key: UTF8Key) -> Bool {
        let previous = latest[key]?.count
        guard message.payload.count <= Self.maxPayloadBytes,
              previous != nil || latest.count < Self.maxTopics,
              totalBytes - (previous ?? 0) + message.payload.count <= Self.maxTotalBytes else {
            droppedMessages += 1
            return false
        }
        totalBytes += message.payload.count - (previous ?? 0)
        latest[key] = message.payload
        return true
    }

    /// Everything announced, translated: toggles deduplicated across sources and
    /// sorted, extras, and what was skipped.
    public func result() -> DiscoveryResult {
        var yield = AnnouncementYield()
        var heard = HeardSources()
        let channels = ShellyAnnouncement.ChannelIndex(topics: latest.keys)
        for topic in latest.keys.sorted() {
            guard let payload = latest[topic], !payload.isEmpty else { continue }  // empty: removed
            yield.append(translate(topic: topic.text, payload: payload, channels: channels, heard: &heard))
        }
        for prefix in foundOnline.sorted() where latest[UTF8Key(prefix.text + "/announce")] == nil {
            yield.skipped.append(SkippedThing(what: "Shelly \(prefix.text)", reason: "its retained \(prefix.text)/online says it is there, but it "
                + "answered neither Shelly.GetDeviceInfo nor Shelly.GetStatus on \(prefix.text)/rpc in \(options.listenSeconds) s: turn on "
                + "'RPC over MQTT' (enable_rpc) in its MQTT settings, or try a longer --seconds"))
        }
        if !unaskedShellies.isEmpty {
            yield.skipped.append(SkippedThing(what: "\(unaskedShellies.count) gen2/3 Shelly announcement(s)", reason: "not asked for "
                + "their status: a topic prefix unlike a Shelly's id (shelly<model>-<MAC>), or beyond the first \(Self.maxStatusRequests)"))
        }
        return DiscoveryDeduplication.result(of: yield, heard: heard, droppedMessages: droppedMessages)
    }

    private func translate(topic key: String, payload: [UInt8], channels: ShellyAnnouncement.ChannelIndex,
                           heard: inout HeardSources) -> AnnouncementYield {
        let topic = key.hasPrefix(Self.sharedShellyTopic + "\u{0}") ? Self.sharedShellyTopic : key
        // A zigbee2mqtt list is parsed into what its translation reads, no more: four
        // of 3.9 MiB, each parsed whole (several times its size) beside the others' bytes,
        // took discover to 65.2 MB, over its 64 MB.
        let shape = Zigbee2MQTTAnnouncement.baseTopic(of: topic) != nil ? Zigbee2MQTTAnnouncement.readShape : nil
        let json: JSONValue
        do { json = try JSONValue.parse(bytes: payload, cutTo: shape) } catch {
            return isAnnouncement(topic) ? AnnouncementYield(skipped: [SkippedThing(what: topic, reason: "not valid JSON (\(error))")]) : AnnouncementYield()
        }
        if let base = Zigbee2MQTTAnnouncement.baseTopic(of: topic) {
            heard.zigbee2mqttBases.insert(base)
            let version = latest[UTF8Key(base + Zigbee2MQTTAnnouncement.infoSuffix)].flatMap { try? JSONValue.parse(bytes: $0) }?["version"]?.stringValue
            return Zigbee2MQTTAnnouncement.devices(json, base: base, version: version)
        }
        if let base = Zigbee2MQTTAnnouncement.baseTopic(of: topic, suffix: Zigbee2MQTTAnnouncement.groupsSuffix) {
            return Zigbee2MQTTAnnouncement.groups(json, base: base)
        }
        if TasmotaAnnouncement.mac(of: topic) != nil {
            heard.tasmota += 1
            return TasmotaAnnouncement.toggles(json, topic: topic)
        }
        if HomeAssistantAnnouncement.parseTopic(topic, prefix: options.homeAssistantPrefix) != nil {
            heard.homeAssistant += 1
            return HomeAssistantAnnouncement.toggles(json, topic: topic, prefix: options.homeAssistantPrefix)
        }
        if topic.hasSuffix("/announce"), let device = ShellyAnnouncement.device(json, topic: topic) {
            // Each device answers on two topics; translate it once, from its own topic when heard.
            let own = device.generation >= 2 ? "\(device.prefix)/announce" : "shellies/\(device.id)/announce"
            if topic.utf8.elementsEqual(Self.sharedShellyTopic.utf8), latest[UTF8Key(own)]?.isEmpty == false { return AnnouncementYield() }
            heard.shelly.insert(device.id)
            let announcedOn = answeredOverRPC.contains(UTF8Key(key)) ? "\(device.prefix)/rpc (Shelly.GetDeviceInfo)" : topic
            return ShellyAnnouncement.toggles(device, channels: channels, announcedOn: announcedOn)
        }
        return AnnouncementYield()
    }

    private func isAnnouncement(_ topic: String) -> Bool {
        Zigbee2MQTTAnnouncement.baseTopic(of: topic) != nil || TasmotaAnnouncement.mac(of: topic) != nil
            || HomeAssistantAnnouncement.parseTopic(topic, prefix: options.homeAssistantPrefix) != nil
    }
}
