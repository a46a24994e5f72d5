extension TileIcon {
    /// Whole names to suggest for a misspelt icon (issue 41: `icon: lightbul.fill` was
    /// accepted silently): each family's stems, alone and `.fill`, and the names the
    /// project writes.
    static let suggestedNames: [String] = {
        let stems = families.flatMap(\.prefixes).map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
        let written = ["door.garage.closed", "door.left.hand.closed", "lock.fill", "sun.max.fill", "moon.fill", "fan.fill",
                       "figure.walk", "sparkles.tv", "blinds.vertical.closed", "poweroutlet.type.b.fill"]
        var seen = Set<String>()
        return (written + stems.flatMap { [$0, $0 + ".fill"] }).filter { seen.insert($0).inserted }
    }()
}
