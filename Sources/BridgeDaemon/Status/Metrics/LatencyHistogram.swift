/// A fixed-bucket histogram of durations in microseconds, shown in seconds the
/// Prometheus way (cumulative `le` buckets, `_sum`, `_count`). Fixed size.
public struct LatencyHistogram: Sendable, Equatable {
    /// Upper bounds of the buckets, microseconds, ascending (`+Inf` is implied).
    public let upperBoundsUs: [Int64]
    /// Observations per bucket (not cumulative); the last one is `+Inf`.
    public private(set) var bucketCounts: [UInt64]
    public private(set) var count: UInt64 = 0
    /// Sum of all observations, microseconds (saturating).
    public private(set) var sumUs: Int64 = 0

    public init(upperBoundsUs: [Int64]) {
        self.upperBoundsUs = upperBoundsUs
        bucketCounts = Array(repeating: 0, count: upperBoundsUs.count + 1)
    }

    /// Counts one duration; negative durations (clock skew) count as zero.
    public mutating func record(microseconds: Int64) {
        let duration = max(microseconds, 0)
        let index = upperBoundsUs.firstIndex(where: { duration <= $0 }) ?? upperBoundsUs.count
        bucketCounts[index] &+= 1
        count &+= 1
        let (sum, overflow) = sumUs.addingReportingOverflow(duration)
        sumUs = overflow ? Int64.max : sum
    }

    /// `(le label, cumulative count)` for every bucket, `+Inf` last.
    public var cumulativeBuckets: [(le: String, count: UInt64)] {
        var running: UInt64 = 0
        var buckets: [(le: String, count: UInt64)] = []
        for (index, bucketCount) in bucketCounts.enumerated() {
            running &+= bucketCount
            let label = index < upperBoundsUs.count ? PrometheusText.seconds(microseconds: upperBoundsUs[index]) : "+Inf"
            buckets.append((label, running))
        }
        return buckets
    }
}
