/// Nearest-rank percentiles of microsecond samples.
enum Percentile {
    /// The `percent`-th percentile (nearest rank) of `samplesUs`, nil when empty.
    static func of(_ samplesUs: [Int64], percent: Int) -> Int64? {
        guard !samplesUs.isEmpty else { return nil }
        let sorted = samplesUs.sorted()
        let rank = max(1, (percent * sorted.count + 99) / 100)
        return sorted[min(rank, sorted.count) - 1]
    }
}
