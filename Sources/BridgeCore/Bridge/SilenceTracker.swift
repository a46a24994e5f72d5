/// What the bridge heard since start, so that once settled it can say which
/// actions' devices never spoke, and what near misses the broker shows.
struct SilenceTracker: Sendable {
    /// Wait after settling before looking for silent actions.
    static let graceMs: Int64 = 5_000
    /// How long the broker-wide look for near misses listens.
    static let probeWindowMs: Int64 = 2_000
    /// The filter of that look: everything (retained messages arrive at once).
    static let probeFilter = "#"
    /// Messages examined during the look, at most.
    static let maxProbedMessages = 20_000
    /// Near misses kept per configured topic.
    static let maxNearMissesPerTopic = 3

    /// A state payload that lacked the listened field.
    struct FieldlessPayload: Sendable, Equatable {
        var field: String
        var fieldsPresent: [String]
    }

    /// Keyed by bytes, as the broker keys topics (`UTF8Key`).
    private(set) var heardTopics: Set<UTF8Key> = []
    private(set) var fieldless: [UTF8Key: FieldlessPayload] = [:]
    var isCheckScheduled = false
    /// Lower-cased configured topic -> the configured topics, while probing. Keyed
    /// by `String` on purpose: a near miss is a topic that differs by case or by
    /// Unicode normalization only, so canonical equivalence is what finds it.
    private(set) var probeTargets: [String: [String]]?
    /// Configured topic (by bytes) -> the near misses heard for it.
    private(set) var nearMisses: [UTF8Key: [String]] = [:]
    private var probedMessages = 0

    /// Only subscribed topics reach this, so the set is bounded by the config.
    mutating func noteHeard(topic: String) {
        heardTopics.insert(UTF8Key(topic))
        fieldless[UTF8Key(topic)] = nil
    }

    mutating func noteFieldless(topic: String, field: String, fieldsPresent: [String]) {
        fieldless[UTF8Key(topic)] = FieldlessPayload(field: field, fieldsPresent: fieldsPresent)
    }

    var isProbing: Bool { probeTargets != nil }
    /// Whether the near-miss look ever ran (messages outside the config may still trickle in).
    private(set) var hasProbed = false

    mutating func startProbe(for topics: [String]) {
        hasProbed = true
        var targets: [String: [String]] = [:]
        for topic in topics { targets[topic.lowercased(), default: []].append(topic) }
        probeTargets = targets
        probedMessages = 0
    }

    mutating func endProbe() { probeTargets = nil }

    /// A message on a topic the config does not listen to, seen while probing:
    /// kept when it differs from a silent topic only by case.
    mutating func noteProbed(topic: String) {
        guard let targets = probeTargets, probedMessages < Self.maxProbedMessages else { return }
        probedMessages += 1
        let heard = UTF8Key(topic)
        for configured in targets[topic.lowercased()] ?? [] where UTF8Key(configured) != heard {
            var misses = nearMisses[UTF8Key(configured)] ?? []
            guard misses.count < Self.maxNearMissesPerTopic, !misses.contains(where: { UTF8Key($0) == heard }) else { continue }
            misses.append(topic)
            nearMisses[UTF8Key(configured)] = misses
        }
    }
}
