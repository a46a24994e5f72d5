/// A topic on the broker (or a device of zigbee2mqtt's list) that looks like a
/// configured topic nothing was heard on: the same but for case or Unicode
/// normalization, or one level of it a typo away (`Hallway Light` for `Halway Light`).
public struct NearMiss: Sendable, Equatable {
    /// The configured topic that stayed silent.
    public var configured: String
    /// The topic found (for a listed device: `<base>/<friendly_name>`).
    public var found: String
    /// The list it came from (`zigbee2mqtt/bridge/devices`), nil for a topic the broker has.
    public var listedIn: String?
    /// Whether only case or Unicode normalization differs.
    public var isCaseOnly: Bool
    /// Edits between the two differing levels (0 for case only); the closest are kept.
    var distance: Int

    /// What the homeowner reads after "never heard from": "; the broker has A (not B):
    /// topics are case-sensitive", "; zigbee2mqtt/bridge/devices lists A (not B): is
    /// the name in the config misspelt?", or "" when there is none. `shown` quotes a
    /// topic for where it goes (HTML on the status page).
    public static func clause(_ misses: [NearMiss], shown: (String) -> String = { $0 }) -> String {
        guard !misses.isEmpty else { return "" }
        let heard = misses.filter { $0.listedIn == nil }.map { "\(shown($0.found)) (not \(shown($0.configured)))" }
        var parts = heard.isEmpty ? [] : ["the broker has " + heard.joined(separator: ", ")]
        var lists: [String] = []
        for miss in misses { if let list = miss.listedIn, !lists.contains(list) { lists.append(list) } }
        for list in lists {
            let listed = misses.filter { $0.listedIn == list }.map { "\(shown($0.found)) (not \(shown($0.configured)))" }
            parts.append("\(shown(list)) lists " + listed.joined(separator: ", "))
        }
        let hint = misses.allSatisfy(\.isCaseOnly) ? "topics are case-sensitive" : "is the name in the config misspelt?"
        return "; " + parts.joined(separator: "; ") + ": " + hint
    }
}
