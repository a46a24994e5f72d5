import BridgeCore
import CurlShell
import ShellSupport

/// The daemon's link to the Aivi service through libcurl: PATCHes on one
/// kept-alive connection and the event stream, both on one multi handle driven by
/// the runtime's loop (no thread of their own; completions and events come on the
/// loop's thread).
final class AiviLink: Sendable {
    let settings: AiviSettings
    let relay: RuntimeRelay
    let metrics: DaemonMetrics
    let log: LogSink
    private let token: Secret
    private let multi: CurlMulti
    private let http: HTTPClient
    private let events: SSEClient
    /// `https://host/…/widget/`: a PATCH's URL is this and its slug.
    private let widgetURLPrefix: String
    /// The headers of every PATCH (made once, not per PATCH).
    private let patchHeaders: [(name: String, value: String)]

    init(settings: AiviSettings, timing: TimingSettings, token: Secret, relay: RuntimeRelay,
         metrics: DaemonMetrics, log: LogSink, loop: EventLoop) throws(DaemonStartError) {
        self.settings = settings
        self.token = token
        self.relay = relay
        self.metrics = metrics
        self.log = log
        widgetURLPrefix = Self.join(settings.apiBaseURL, "/widget/")
        patchHeaders = [(name: "Authorization", value: "Token \(token.revealedValue)"),
                        (name: "Content-Type", value: "application/json")]
        var httpSettings = HTTPClientSettings()
        httpSettings.caFile = settings.caFile
        do { multi = try CurlMulti(on: loop) } catch { throw .http("\(error)") }
        http = HTTPClient(settings: httpSettings, on: multi)
        var streamSettings = SSEClientSettings(
            url: Self.join(settings.apiBaseURL, settings.eventsPath),
            headers: [("Authorization", "Token \(token.revealedValue)")], caFile: settings.caFile)
        streamSettings.deadConnectionTimeoutMs = Int(timing.streamDeadAfterMs)
        let connects = ConditionLock(0)
        events = SSEClient(settings: streamSettings) { event in
            Self.forward(event, relay: relay, metrics: metrics, connects: connects, log: log)
        }
    }

    /// Opens the event stream (on the loop's thread).
    func start() {
        events.start(on: multi)
    }

    /// Stops taking presses: closes the event stream (from any thread; no event is
    /// delivered after).
    func stopEvents() { events.stop() }

    /// Closes the stream and the PATCH connection, frees the multi handle; on the loop's thread.
    func stop() {
        events.stop()
        http.stop()
        multi.close()
    }

    /// `PATCH /widget/{slug}`; the outcome goes to `completion` on the loop's thread.
    func patch(_ request: PatchRequest, completion: @escaping @Sendable (PatchOutcome) -> Void) {
        let request = HTTPClientRequest(method: "PATCH", url: widgetURLPrefix + request.slug, headers: patchHeaders,
                                        body: Array(request.body.utf8))
        http.send(request) { result in
            completion(Self.outcome(result))
        }
    }

    static func outcome(_ result: HTTPClientResult) -> PatchOutcome {
        switch result {
        case .response(let response):
            // The kept headers are keyed by their lower-case names (no name lowered per answer).
            let retryAfterMs = response.headers["retry-after"].flatMap {
                RetryAfter.delayMs(header: $0, responseDate: response.headers["date"], boardClockMs: WallClock.nowEpochMs())
            }
            let isRefusal = (400..<500).contains(response.status) && response.status != 429
            let reason = isRefusal ? ServiceErrorText.reason(fromBody: response.body) : nil
            return .status(response.status, retryAfterMs: retryAfterMs, reason: reason)
        case .failure(let error):
            return .transportFailure(error.description)
        }
    }

    static func forward(_ event: SSEClientEvent, relay: RuntimeRelay, metrics: DaemonMetrics, connects: ConditionLock<Int>, log: LogSink) {
        switch event {
        case .connected(let dateHeader):
            if connects.withLock({ count in count += 1; return count > 1 }) { metrics.recordReconnect(.eventStream) }
            log.info("event stream connected")
            relay.submit(.eventStreamConnected(dateHeader: dateHeader, receivedAtMonotonicMs: MonotonicClock.nowMs()))
        case .event(let event):
            relay.submit(.streamEvent(event, receivedAtUs: MonotonicClock.nowUs()))
        case .disconnected(let reason, let refusedStatus):
            if let status = refusedStatus, SSEReconnectPolicy.refusesToken(status) {
                log.error("event stream: token refused by the service (HTTP \(status)): check the API token "
                          + "(aivi.token_file or the aivi-token credential); retrying with the longest backoff")
                relay.submit(.core(.eventStreamTokenRefused(status: status)))
                return
            }
            log.warning("event stream disconnected: \(reason); reconnecting")
            relay.submit(.core(.eventStreamDisconnected))
        case .invalidEvent(let reason):
            log.warning("event stream: \(reason)")
        }
    }

    /// `https://host` + `/path`, without doubling the slash.
    static func join(_ base: String, _ path: String) -> String {
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        return trimmed + (path.hasPrefix("/") ? path : "/" + path)
    }
}
