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
