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
    public var kind: AnnouncedKind
    /// Model, vendor and the announcement's topic, for the comment above the action.
    public var origin: String
    public var wiring: ToggleWiring
    /// The preset the firmware's own announcement points to (checked by expanding it).
    public var presetHint: PresetChoice?

    public init(
        source: DiscoverySource, deviceKeys: Set<String>, label: String, idHint: String,
        kind: AnnouncedKind, origin: String, wiring: ToggleWiring, presetHint: PresetChoice? = nil
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
