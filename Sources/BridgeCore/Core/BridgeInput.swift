/// Something that happened, handed to `Bridge.handle(_:)` by the shell.
///
/// Every input carries the board's wall clock and the current estimate of how far
/// the server's clock is ahead of it, so the core itself never reads a clock.
public struct BridgeInput: Sendable, Equatable {
    public var event: BridgeInputEvent
    /// The board's wall clock, milliseconds since the Unix epoch.
    public var boardClockMs: Int64
    /// Server clock minus board clock, milliseconds (from the stream's `Date`).
    public var serverClockOffsetMs: Int64
    /// How far `serverClockMs` may be off the server's real clock: `HTTPDate.uncertaintyMs`
    /// from a `Date` header (the shell may add the board clock's drift since), `Int64.max`
    /// when the server's clock was never read (then no unsafe id is forgotten by time).
    public var serverClockUncertaintyMs: Int64

    public init(_ event: BridgeInputEvent, boardClockMs: Int64, serverClockOffsetMs: Int64 = 0,
                serverClockUncertaintyMs: Int64 = HTTPDate.uncertaintyMs) {
        self.event = event
        self.boardClockMs = boardClockMs
        self.serverClockOffsetMs = serverClockOffsetMs
        self.serverClockUncertaintyMs = serverClockUncertaintyMs
    }

    /// The server's clock at this input, as well as the bridge can tell.
    public var serverClockMs: Int64 { boardClockMs.addingSaturating(serverClockOffsetMs) }
}

/// The kinds of input the core decides on.
public enum BridgeInputEvent: Sendable, Equatable {
    /// The process has started (once, before anything else): the core decides when
    /// the event stream opens.
    case started
    /// The MQTT connection is up (every connect, including reconnects).
    case mqttConnected
    case mqttDisconnected
    /// A message on a subscribed topic; the payload is copied bytes.
    case mqttMessage(topic: String, payload: [UInt8])
    /// A message larger than `mqtt.max_payload_bytes` was dropped unread by the shell.
    case mqttPayloadTooLarge(topic: String, byteCount: Int)
    case eventStreamConnected
    case eventStreamDisconnected
    /// The service refused the event stream for its token (HTTP 401 or 403): it
    /// stays refused until the stream connects again.
    case eventStreamTokenRefused(status: Int)
    /// One event from Aivi's stream (`event:` type, `id:`, joined `data:`).
    case streamEvent(StreamEvent)
    /// A PATCH the core asked for has finished.
    case patchCompleted(slug: String, requestId: UInt64, outcome: PatchOutcome)
    case timerFired(BridgeTimer)
    /// A new config was loaded (SIGHUP); the old one stays if this one is bad,
    /// so only valid configs arrive here.
    case configReloaded(BridgeConfig)
    /// The store made this press's record durable (only the store makes a
    /// `DurableRecord`): the press, held until now, is carried out.
    case unsafeEventIdRecorded(DurableRecord)
    /// The shell could not write the record of these presses' event ids: they
    /// are not carried out, and nothing of them was committed.
    case unsafeEventIdsNotRecorded([String])
}

/// One dispatched Server-Sent Event, as the event stream's parser
/// (`CurlShell.SSEParser`) gives it and the core reads it.
public struct StreamEvent: Sendable, Equatable {
    /// The last event ID at dispatch (WHATWG: it carries over between events).
    public var id: String?
    /// The SSE `event:` field (`message` when the stream named no type).
    public var type: String
    public var data: String

    public init(id: String?, type: String, data: String) {
        self.id = id
        self.type = type
        self.data = data
    }
}

/// How a PATCH ended.
public enum PatchOutcome: Sendable, Equatable {
    /// The service answered with an HTTP status.
    /// `reason`: the service's own words for a refusal (sanitized, bounded).
    case status(Int, retryAfterMs: Int64? = nil, reason: String? = nil)
    /// No answer: connection refused, timeout, TLS failure, ...
    case transportFailure(String)
}
