/// The bridge's connections over time, for the status page: since when each is
/// up or down, and how often it came back.
public struct ConnectionFacts: Sendable, Equatable {
    /// Board clock of the last MQTT connect or disconnect; nil before either.
    public var mqttChangedAtMs: Int64?
    /// MQTT connects since start; reconnects are this minus one.
    public var mqttConnects = 0
    /// Board clock of the last event stream connect or disconnect.
    public var eventStreamChangedAtMs: Int64?
    public var eventStreamConnects = 0
    /// Board clock of the last event on the stream (any type).
    public var lastStreamEventAtMs: Int64?
    /// The HTTP status (401, 403) with which the service last refused the stream's
    /// token; nil once the stream connects.
    public var tokenRefusedStatus: Int?

    public init() {}

    /// Reconnects after the first connect (never negative).
    public var mqttReconnects: Int { max(0, mqttConnects - 1) }
    public var eventStreamReconnects: Int { max(0, eventStreamConnects - 1) }

    /// "token refused by the service (HTTP 401)" while it is, else nil: what the
    /// unit's STATUS=, `/healthz` and the status view say instead of "stream disconnected".
    public var tokenRefusedPhrase: String? {
        tokenRefusedStatus.map { "token refused by the service (HTTP \($0))" }
    }
}
