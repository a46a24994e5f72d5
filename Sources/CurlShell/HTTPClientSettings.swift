/// Limits and TLS settings of `HTTPClient`.
public struct HTTPClientSettings: Sendable {
    public var connectTimeoutMs: Int
    /// The whole request, connect included.
    public var totalTimeoutMs: Int
    /// Extra CA file; TLS is always verified (against the system store otherwise).
    public var caFile: String?
    /// Larger bodies fail the request with `.responseTooLarge`.
    public var maxResponseBodyBytes: Int
    /// Requests waiting behind the one in flight; more are refused with `.queueFull`.
    public var maxQueuedRequests: Int

    public init(
        connectTimeoutMs: Int = 5_000,
        totalTimeoutMs: Int = 10_000,
        caFile: String? = nil,
        maxResponseBodyBytes: Int = 65_536,
        maxQueuedRequests: Int = 16
    ) {
        self.connectTimeoutMs = connectTimeoutMs
        self.totalTimeoutMs = totalTimeoutMs
        self.caFile = caFile
        self.maxResponseBodyBytes = maxResponseBodyBytes
        self.maxQueuedRequests = maxQueuedRequests
    }
}
