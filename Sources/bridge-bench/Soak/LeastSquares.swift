/// Least-squares slopes of resource samples.
enum LeastSquares {
    /// The common slope of several series that each have their own intercept
    /// (one per bridge lifetime: a restart resets memory, not the trend), in y
    /// units per x unit; nil with fewer than two distinct x values in any series.
    static func pooledSlope(_ series: [[(x: Double, y: Double)]]) -> Double? {
        var numerator = 0.0
        var denominator = 0.0
        for points in series where points.count >= 3 {
            let meanX = points.map(\.x).reduce(0, +) / Double(points.count)
            let meanY = points.map(\.y).reduce(0, +) / Double(points.count)
            for point in points {
                numerator += (point.x - meanX) * (point.y - meanY)
                denominator += (point.x - meanX) * (point.x - meanX)
            }
        }
        return denominator > 0 ? numerator / denominator : nil
    }
}
