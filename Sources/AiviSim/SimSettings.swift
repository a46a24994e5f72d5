/// How a simulator instance is set up.
public struct SimSettings: Sendable {
    /// The owner's API token (`Authorization: Token <token>`).
    public var token: String
    /// The slugs of the account's widgets.
    public var widgetSlugs: [String]
    /// `127.0.0.1` or `::1`.
    public var host: String = "127.0.0.1"
    /// 0 picks a free port.
    public var port: Int = 0
    /// **[assumed]** The event stream's path.
    public var eventsPath: String = "/events"
    /// A keepalive comment goes out after this much silence on the stream (simulator clock).
    public var keepaliveIntervalMs: Int64 = 15_000
    /// When set, the stream starts with `retry: <ms>`.
    public var sseRetryMs: Int? = nil
    /// **[assumed]** The largest PATCH body accepted; larger gets 413.
    public var maxBodyBytes: Int = 64 * 1024
    /// The most phones the simulator models.
    public var maxPhones: Int = 32
    /// The most publishes kept per widget in its history.
    public var maxHistoryPerWidget: Int = 500
    /// The most events kept (expired ones included) for replay and inspection.
    public var maxRetainedEvents: Int = 1_000
    /// The most connections open at once (event streams included).
    public var maxConnections: Int = 64
    /// The service's timing and rate-limit rules.
    public var rules: ServiceRules = .documented

    public init(token: String, widgetSlugs: [String]) {
        self.token = token
        self.widgetSlugs = widgetSlugs
    }
}
