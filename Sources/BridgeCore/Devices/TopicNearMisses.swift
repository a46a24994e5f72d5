/// Finds near misses of silent configured topics among the topics a broker has
/// and the devices zigbee2mqtt lists (`<base>/bridge/devices`): the same topic but
/// for case or Unicode normalization, or with one level a typo away. Linear in what
/// it is shown: each configured level is indexed by its one-deletion variants, so a
/// heard topic is compared only with the targets sharing all its other levels and a
/// variant, never with every target; every count is capped.
struct TopicNearMisses: Sendable {
    /// Topics examined at most (a heard topic and each of its parents count once).
    static let maxNotedTopics = 20_000
    /// Near misses kept per configured topic (the closest).
    static let maxPerTarget = 3
    /// Topics deeper than this are not compared.
    static let maxLevels = 8
    /// A level longer than this is compared by case only.
    static let maxLevelCharacters = 64
    /// Targets kept under one index key (a pathological config cannot make one key costly).
    static let maxTargetsPerKey = 16
    /// zigbee2mqtt device lists read at most.
    static let maxListsRead = 4

    private struct Target {
        var topic: String
        var levels: [String]
    }

    private var targets: [Target] = []
    /// "levels\0position\0other levels": present when some target has that shape.
    private var shapes: Set<String> = []
    /// shape + "\0" + the differing level or one of its one-deletion variants -> targets.
    private var byVariant: [String: [Int]] = [:]
    private var levelCounts: Set<Int> = []
    /// Every configured topic: never a near miss of another.
    private let configured: Set<UTF8Key>
    private let zigbee2mqttBase: String?
    private var noted = 0
    private var listsRead = 0
    /// Configured topic (by bytes) -> its near misses, closest first.
    private(set) var found: [UTF8Key: [NearMiss]] = [:]

    /// Keyed by `String` (lower-cased) on purpose: canonical equivalence is what finds
    /// a topic that differs by Unicode normalization only.
    init(targets topics: [String], configured: Set<UTF8Key>, zigbee2mqttBase: String?) {
        self.configured = configured
        self.zigbee2mqttBase = zigbee2mqttBase
        var seen: Set<UTF8Key> = []
        for topic in topics where seen.insert(UTF8Key(topic)).inserted {
            let levels = Self.levels(topic)
            guard levels.count <= Self.maxLevels else { continue }
            let index = targets.count
            targets.append(Target(topic: topic, levels: levels))
            levelCounts.insert(levels.count)
            for position in levels.indices {
                let shape = Self.shape(levels, position)
                shapes.insert(shape)
                for variant in Self.variants(levels[position]) {
                    var list = byVariant[shape + "\u{0}" + variant] ?? []
                    guard list.count < Self.maxTargetsPerKey, list.last != index else { continue }
                    list.append(index)
                    byVariant[shape + "\u{0}" + variant] = list
                }
            }
        }
    }

    var isEmpty: Bool { targets.isEmpty }

    /// A topic the broker has: it and its parents (`zigbee2mqtt/Hallway Light` of
    /// `zigbee2mqtt/Hallway Light/availability`) are compared.
    mutating func noteHeard(topic: String) {
        let original = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard original.count <= 4 * Self.maxLevels else { return }
        for count in levelCounts.sorted() where count <= original.count {
            compare(original[..<count].joined(separator: "/"), listedIn: nil)
        }
    }

    /// A payload on a topic outside the config: zigbee2mqtt's device list is read
    /// for its friendly names (`<base>/<name>` compared); anything else is ignored.
    mutating func noteListed(topic: String, payload: [UInt8]) {
        guard let zigbee2mqttBase, topic == zigbee2mqttBase + Zigbee2MQTTAnnouncement.devicesSuffix, listsRead < Self.maxListsRead,
              let list = try? JSONValue.parse(bytes: payload) else { return }
        listsRead += 1
        for name in Zigbee2MQTTAnnouncement.friendlyNames(list) { compare(zigbee2mqttBase + "/" + name, listedIn: topic) }
    }

    private mutating func compare(_ candidate: String, listedIn: String?) {
        guard noted < Self.maxNotedTopics, !configured.contains(UTF8Key(candidate)) else { return }
        noted += 1
        let levels = Self.levels(candidate)
        guard levelCounts.contains(levels.count) else { return }
        var hits: Set<Int> = []
        for position in levels.indices {
            let shape = Self.shape(levels, position)
            guard shapes.contains(shape) else { continue }
            for variant in Self.variants(levels[position]) {
                for index in byVariant[shape + "\u{0}" + variant] ?? [] where hits.insert(index).inserted {
                    consider(candidate, levels: levels, position: position, target: index, listedIn: listedIn)
                }
            }
        }
    }

    private mutating func consider(_ candidate: String, levels: [String], position: Int, target index: Int, listedIn: String?) {
        let target = targets[index]
        guard UTF8Key(candidate) != UTF8Key(target.topic) else { return }
        let (heard, configured) = (levels[position], target.levels[position])
        let distance = heard == configured ? 0 : EditDistance.between(heard, configured)
        guard distance <= min(2, max(1, configured.count / 4)) else { return }
        var misses = found[UTF8Key(target.topic)] ?? []
        guard !misses.contains(where: { UTF8Key($0.found) == UTF8Key(candidate) }) else { return }
        misses.append(NearMiss(configured: target.topic, found: candidate, listedIn: listedIn, isCaseOnly: distance == 0, distance: distance))
        misses.sort { $0.distance < $1.distance }
        found[UTF8Key(target.topic)] = Array(misses.prefix(Self.maxPerTarget))
    }

    private static func levels(_ topic: String) -> [String] {
        topic.lowercased().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    private static func shape(_ levels: [String], _ position: Int) -> String {
        var others = levels
        others[position] = ""
        return "\(levels.count)\u{0}\(position)\u{0}" + others.joined(separator: "\u{0}")
    }

    /// The level and each string one character shorter (a level too long: itself only).
    private static func variants(_ level: String) -> [String] {
        let characters = Array(level)
        guard characters.count <= maxLevelCharacters, characters.count > 1 else { return [level] }
        var result = [level]
        for skipped in characters.indices {
            var variant = characters
            variant.remove(at: skipped)
            result.append(String(variant))
        }
        return result
    }
}
