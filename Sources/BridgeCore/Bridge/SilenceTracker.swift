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

    private(set) var heardTopics: Set<String> = []
    private(set) var fieldless: [String: FieldlessPayload] = [:]
    var isCheckScheduled = false
    /// Lower-cased configured topic -> the configured topics, while probing.
    private(set) var probeTargets: [String: [String]]?
    private(set) var nearMisses: [String: [String]] = [:]
    private var probedMessages = 0

    /// Only subscribed topics reach this, so the set is bounded by the config.
    mutating func noteHeard(topic: String) {
        heardTopics.insert(topic)
        fieldless[topic] = nil
    }

    mutating func noteFieldless(topic: String, field: String, fieldsPresent: [String]) {
        fieldless[topic] = FieldlessPayload(field: field, fieldsPresent: fieldsPresent)
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
        for configured in targets[topic.lowercased()] ?? [] where configured != topic {
            var misses = nearMisses[configured] ?? []
            guard misses.count < Self.maxNearMissesPerTopic, !misses.contains(topic) else { continue }
            misses.append(topic)
            nearMisses[configured] = misses
        }
    }
}
