/// The outcome of a discovery.
public struct DiscoveryResult: Sendable, Equatable {
    public var toggles: [DiscoveredToggle]
    public var extras: [DiscoveredToggle]
    public var skipped: [SkippedThing]
    public var heard: HeardSources
    public var droppedMessages: Int

    public init(toggles: [DiscoveredToggle], extras: [DiscoveredToggle], skipped: [SkippedThing], heard: HeardSources, droppedMessages: Int) {
        self.toggles = toggles
        self.extras = extras
        self.skipped = skipped
        self.heard = heard
        self.droppedMessages = droppedMessages
    }

    /// Nothing was announced at all.
    public var isEmpty: Bool { toggles.isEmpty && extras.isEmpty && skipped.isEmpty }
}
