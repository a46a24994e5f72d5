import BridgeCore

/// The soak's seeded randomness: one generator, so a seed replays the same schedule.
struct SoakRandom {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// A whole number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &generator)
    }

    /// True with probability `probability` (0...1).
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &generator) < probability
    }

    mutating func element<T>(_ items: [T]) -> T {
        items[int(0...(items.count - 1))]
    }

    mutating func bool() -> Bool { chance(0.5) }
}
