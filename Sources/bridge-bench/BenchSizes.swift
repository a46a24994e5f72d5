/// How much each scenario does: the full run of issue 7, or `--quick` (seconds, for CI).
struct BenchSizes: Sendable {
    /// Toggles in the generated config (always 100, in `widgetCount` widgets).
    var toggleCount = 100
    var widgetCount = 5
    var pressCount: Int
    var stateChangeCount: Int
    var burstMessageCount: Int
    var burstDurationMs: Int
    var idleSeconds: Int
    /// `UnsafePressScenario`: rounds of (none remembered, 4,000 remembered), each a fresh bridge, and presses in each.
    var unsafePressRounds: Int
    var unsafePressesPerRound: Int
    /// Written into the config: state-only PATCHes of a widget start at least
    /// this far apart (the daemon's default; `--min-publish-interval-ms`, 0 = off).
    var minPublishIntervalMs: Int64 = 200
    /// `--quick`: the stalls scenario shortens its slow lookup (5 s instead of 25 s).
    var isQuick = false

    static let full = BenchSizes(pressCount: 1_000, stateChangeCount: 1_000, burstMessageCount: 10_000,
                                 burstDurationMs: 1_000, idleSeconds: 60,
                                 unsafePressRounds: 4, unsafePressesPerRound: 50)
    static let quick = BenchSizes(pressCount: 30, stateChangeCount: 30, burstMessageCount: 1_000,
                                  burstDurationMs: 100, idleSeconds: 5,
                                  unsafePressRounds: 1, unsafePressesPerRound: 5, isQuick: true)

    var togglesPerWidget: Int { toggleCount / widgetCount }

    /// The same sizes with `count` presses, state changes and unsafe presses per bridge (`--count`).
    func counting(_ count: Int) -> BenchSizes {
        var sizes = self
        sizes.pressCount = count
        sizes.stateChangeCount = count
        sizes.unsafePressesPerRound = count
        return sizes
    }

    func slug(ofWidget index: Int) -> String { "bench-w\(index)" }

    /// The widget that holds toggle `toggle`.
    func slug(ofToggle toggle: Int) -> String { slug(ofWidget: toggle / togglesPerWidget) }

    var slugs: [String] { (0..<widgetCount).map { slug(ofWidget: $0) } }
}
