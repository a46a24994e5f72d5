/// One action per switchable thing: a Home Assistant copy of a device its firmware
/// announced itself is left out (matched by IEEE address or MAC, and commanded
/// under the same device topic as the firmware's own toggle: `cmnd/plug/POWER1`
/// beside `cmnd/plug/POWER`; a forged announcement with a real device's MAC alone
/// never displaces it), and Home Assistant entities
/// announced twice (same unique id) count once.
enum DiscoveryDeduplication {
    static func result(of yield: AnnouncementYield, heard: HeardSources, droppedMessages: Int) -> DiscoveryResult {
        let native = yield.announcedDeviceKeys.union(yield.toggles.filter { $0.source.isFirmwareOwn }.flatMap(\.deviceKeys))
        var toggles: [DiscoveredToggle] = []
        var seenUniqueIds = Set<String>()
        var seenCommands = Set<UTF8Key>()  // topics are bytes
        let nativeCommands = Set(yield.toggles.filter { $0.source.isFirmwareOwn }.map { deviceTopic($0.wiring.command.topic) })
        var skipped = yield.skipped
        for toggle in yield.toggles.sorted(by: order) {
            if toggle.source == .homeAssistant {
                if !toggle.deviceKeys.isDisjoint(with: native), nativeCommands.contains(deviceTopic(toggle.wiring.command.topic)) { continue }
                let uniqueIds = toggle.deviceKeys.filter { $0.hasPrefix("uid:") }
                if !uniqueIds.isDisjoint(with: seenUniqueIds) { continue }
                seenUniqueIds.formUnion(uniqueIds)
            }
            if let problem = toggle.wiring.configProblem {
                skipped.append(SkippedThing(what: "'\(toggle.label)' (\(toggle.origin))", reason: problem))
                continue
            }
            let command = UTF8Key(toggle.wiring.command.topic + "\u{0}" + toggle.wiring.command.payloadOn)
            guard seenCommands.insert(command).inserted else {
                skipped.append(SkippedThing(what: "'\(toggle.label)' (\(toggle.origin))", reason: "the same device as an action above"))
                continue
            }
            toggles.append(toggle)
        }
        if toggles.count > maxToggles {
            skipped.append(SkippedThing(what: "\(toggles.count - maxToggles) more toggle(s)", reason: "beyond the first \(maxToggles) "
                + "(firmware's own first, then by name): one config this size is already more than phones show well"))
            toggles.removeLast(toggles.count - maxToggles)
        }
        // Home Assistant copies of natively announced devices say nothing new.
        skipped = skipped.filter { !isHomeAssistantCopy($0, yield: yield, native: native) }
        return DiscoveryResult(
            toggles: toggles, extras: extras(yield.extras), skipped: Array(Set(skipped.map(Key.init))).map(\.thing).sorted(),
            heard: heard, droppedMessages: droppedMessages
        )
    }

    /// One extra per command topic: a zigbee2mqtt group comes from `bridge/groups` and
    /// from each Home Assistant copy zigbee2mqtt announces of it (a light and a switch
    /// for a group of both); the firmware's own comes first and stays.
    private static func extras(_ extras: [DiscoveredToggle]) -> [DiscoveredToggle] {
        var seen = Set<UTF8Key>()  // topics are bytes
        return extras.sorted(by: order).filter { seen.insert(UTF8Key($0.wiring.command.topic)).inserted }
    }

    /// A command topic without its last level: the device's own part of it.
    private static func deviceTopic(_ topic: String) -> UTF8Key {
        UTF8Key(topic.lastIndex(of: "/").map { String(topic[..<$0]) } ?? topic)  // topics are bytes
    }

    /// Most toggles written (a house has a few dozen to a few hundred).
    static let maxToggles = 2_000

    private static func isHomeAssistantCopy(_ thing: SkippedThing, yield: AnnouncementYield, native: Set<String>) -> Bool {
        guard let keys = yield.skippedDeviceKeys[thing.what] else { return false }
        return !keys.isDisjoint(with: native)
    }

    /// Firmware's own first, then by label and topic, so the output is deterministic.
    static func order(_ lhs: DiscoveredToggle, _ rhs: DiscoveredToggle) -> Bool {
        (lhs.source, lhs.label, lhs.wiring.command.topic, lhs.wiring.command.payloadOn)
            < (rhs.source, rhs.label, rhs.wiring.command.topic, rhs.wiring.command.payloadOn)
    }

    private struct Key: Hashable {
        var what: String
        var reason: String
        init(_ thing: SkippedThing) { what = thing.what; reason = thing.reason }
        var thing: SkippedThing { SkippedThing(what: what, reason: reason) }
    }
}
