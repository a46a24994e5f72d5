/// What the bridge heard since start, so that once settled it can say which
/// actions' devices never spoke, and what near misses the broker shows.
struct SilenceTracker: Sendable {
    /// Wait after settling before looking for silent actions.
    static let graceMs: Int64 = 5_000
    /// How long the broker-wide look for near misses listens.
    static let probeWindowMs: Int64 = 2_000
    /// The filter of that look: everything (retained messages arrive at once).
    static let probeFilter = "#"

    /// A state payload that lacked the listened field.
    struct FieldlessPayload: Sendable, Equatable {
        var field: String
        var fieldsPresent: [String]
    }

    /// Keyed by bytes, as the broker keys topics (`UTF8Key`).
    private(set) var heardTopics: Set<UTF8Key> = []
    private(set) var fieldless: [UTF8Key: FieldlessPayload] = [:]
    var isCheckScheduled = false
    /// The silent topics' near-miss finder, while probing.
    private var probe: TopicNearMisses?
    /// Configured topic (by bytes) -> the near misses found for it.
    private(set) var nearMisses: [UTF8Key: [NearMiss]] = [:]

    /// Only subscribed topics reach this, so the set is bounded by the config.
    mutating func noteHeard(topic: UTF8Key) {
        heardTopics.insert(topic)
        if !fieldless.isEmpty { fieldless[topic] = nil }
    }

    mutating func noteFieldless(topic: String, field: String, fieldsPresent: [String]) {
        fieldless[UTF8Key(topic)] = FieldlessPayload(field: field, fieldsPresent: fieldsPresent)
    }

    var isProbing: Bool { probe != nil }
    /// Whether the near-miss look ever ran (messages outside the config may still trickle in).
    private(set) var hasProbed = false

    mutating func startProbe(for topics: [String], configured: Set<UTF8Key>, zigbee2mqttBase: String?) {
        hasProbed = true
        probe = TopicNearMisses(targets: topics, configured: configured, zigbee2mqttBase: zigbee2mqttBase)
    }

    mutating func endProbe() {
        nearMisses = probe?.found ?? [:]
        probe = nil
    }

    /// A message on a topic the config does not listen to, seen while probing:
    /// kept when it nearly matches a silent topic (`TopicNearMisses`); zigbee2mqtt's
    /// device list (`payload`, when it arrived whole) is read for its names.
    mutating func noteProbed(topic: String, payload: [UInt8]?) {
        guard probe != nil else { return }
        probe?.noteHeard(topic: topic)
        if let payload { probe?.noteListed(topic: topic, payload: payload) }
    }
}
