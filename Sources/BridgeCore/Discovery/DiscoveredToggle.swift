/// One switchable thing found in an announcement, ready to become a toggle.
public struct DiscoveredToggle: Sendable, Equatable {
    /// Where it came from.
    public var source: DiscoverySource
    /// The device's identities, normalised (`ieee:0x…`, `mac:AABBCCDDEEFF`,
    /// `mac6:DDEEFF`, `uid:…`), for recognising one device announced twice.
    public var deviceKeys: Set<String>
    /// The tile's name.
    public var label: String
    /// What the action id is made from.
    public var idHint: String
    public var kind: DeviceKind
    /// Model, vendor and the announcement's topic, for the comment above the action.
    public var origin: String
    public var wiring: ToggleWiring
    /// The preset the firmware's own announcement points to (checked by expanding it).
    public var presetHint: PresetChoice?

    public init(
        source: DiscoverySource, deviceKeys: Set<String>, label: String, idHint: String,
        kind: DeviceKind, origin: String, wiring: ToggleWiring, presetHint: PresetChoice? = nil
    ) {
        self.presetHint = presetHint
        self.source = source
        self.deviceKeys = deviceKeys
        self.label = label
        self.idHint = idHint
        self.kind = kind
        self.origin = origin
        self.wiring = wiring
    }
}

/// The topics and payloads of a toggle, spelled out as config keys.
public struct ToggleWiring: Sendable, Equatable {
    public var stateSources: [StateSource]
    public var command: ToggleCommand
    public var availability: AvailabilitySource?
    /// The device reports nothing: the state is assumed from the command.
    public var optimistic: Bool

    public init(stateSources: [StateSource], command: ToggleCommand, availability: AvailabilitySource?, optimistic: Bool = false) {
        self.stateSources = stateSources
        self.command = command
        self.availability = availability
        self.optimistic = optimistic
    }
}

/// Something announced that does not become a toggle, and why.
public struct SkippedThing: Sendable, Equatable, Comparable {
    public var what: String
    public var reason: String

    public init(what: String, reason: String) {
        self.what = what
        self.reason = reason
    }

    public static func < (lhs: SkippedThing, rhs: SkippedThing) -> Bool {
        (lhs.what, lhs.reason) < (rhs.what, rhs.reason)
    }
}

/// What one announcement yields.
public struct AnnouncementYield: Sendable, Equatable {
    public var toggles: [DiscoveredToggle] = []
    public var skipped: [SkippedThing] = []
    /// Optional extras written commented out (zigbee2mqtt groups).
    public var extras: [DiscoveredToggle] = []
    /// Every device the firmware announced itself, toggles or not: a Home
    /// Assistant copy of one of these is left out.
    public var announcedDeviceKeys: Set<String> = []
    /// The device keys of skipped things (by `what`), so a Home Assistant copy of a
    /// natively announced device is not listed as skipped either.
    public var skippedDeviceKeys: [String: Set<String>] = [:]

    public init(toggles: [DiscoveredToggle] = [], skipped: [SkippedThing] = [], extras: [DiscoveredToggle] = []) {
        self.toggles = toggles
        self.skipped = skipped
        self.extras = extras
    }

    mutating func append(_ other: AnnouncementYield) {
        toggles += other.toggles
        skipped += other.skipped
        extras += other.extras
        announcedDeviceKeys.formUnion(other.announcedDeviceKeys)
        skippedDeviceKeys.merge(other.skippedDeviceKeys) { $0.union($1) }
    }
}
