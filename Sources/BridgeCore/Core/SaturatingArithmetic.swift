/// Arithmetic that cannot trap, for numbers that came from outside (headers,
/// payloads, files) or were derived from them: results stop at the type's bounds.
extension Int64 {
    public func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    public func subtractingSaturating(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other < 0 ? .max : .min
    }

    public func multipliedSaturating(by other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }

    /// `self` doubled `times` times, stopping at `.max` (for backoffs).
    public func doubledSaturating(times: Int) -> Int64 {
        var value = self
        for _ in 0..<Swift.max(0, Swift.min(times, 64)) {
            value = value.multipliedSaturating(by: 2)
            if value == .max || value == .min { break }
        }
        return value
    }

    /// `self` clamped into `range`.
    public func clamped(to range: ClosedRange<Int64>) -> Int64 {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
