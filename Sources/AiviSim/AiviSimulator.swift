import BridgeCore
import HTTPServer
import ShellSupport

/// The Aivi service and its phones, in one process: serve it over loopback HTTP
/// and drive it from tests through this API or the `/_sim/` control API.
public final class AiviSimulator: Sendable {
    public let settings: SimSettings
    /// The simulator's time; a `SimulatedBoardClock` (`.service()`) lets tests move it.
    public let clock: any SimClock
    private let state: ConditionLock<SimState>
    private let server = ConditionLock<HTTPServer?>(nil)
    private let stopped = ConditionLock(false)
    private let observers = ConditionLock<[@Sendable (SimObservation) -> Void]>([])

    private init(settings: SimSettings, clock: any SimClock) {
        self.settings = settings
        self.clock = clock
        state = ConditionLock(SimState(settings: settings, nowMs: clock.nowMs))
    }

    /// Starts serving on `settings.host`/`settings.port` (0: a free port).
    public static func start(settings: SimSettings,
                             clock: any SimClock = SystemClock()) throws(HTTPServerError) -> AiviSimulator {
        let simulator = AiviSimulator(settings: settings, clock: clock)
        let configuration = HTTPServerConfiguration(
            host: settings.host, port: settings.port, maxBodyBytes: settings.maxBodyBytes,
            maxConnections: settings.maxConnections)
        let handler = SimRoutes.handler(for: simulator)
        let started = try HTTPServer.start(configuration: configuration, handler: handler)
        simulator.server.withLock { $0 = started }
        return simulator
    }

    /// The bound port.
    public var port: Int { server.withLock { $0?.port ?? 0 } }

    /// `http://127.0.0.1:<port>` (or `http://[::1]:<port>`).
    public var baseURL: String {
        settings.host.contains(":") ? "http://[\(settings.host)]:\(port)" : "http://\(settings.host):\(port)"
    }

    /// Ends every stream, closes every connection, stops listening.
    public func stop() {
        stopped.withLock { $0 = true }
        let running = server.withLock { current -> HTTPServer? in
            defer { current = nil }
            return current
        }
        running?.stop()
    }

    var isStopped: Bool { stopped.withLock { $0 } }

    /// Adds an observer, called on the server's threads for every PATCH and every
    /// event frame written; it must be quick and must not call back into the simulator.
    public func observe(_ observer: @escaping @Sendable (SimObservation) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    func notify(_ observation: SimObservation) {
        let current = observers.withLock { $0 }
        for observer in current { observer(observation) }
    }

    func withState<Result>(_ body: (inout SimState) -> Result) -> Result {
        state.withLock { body(&$0) }
    }

    // MARK: phones

    /// Presses `action` on `widget` as `phone` (phones appear on first use).
    public func press(phone: String, widget: String, action: String) -> PressOutcome {
        let nowMs = clock.nowMs
        return withState { $0.press(phone: phone, widget: widget, action: action, nowMs: nowMs) }
    }

    /// What each tile of `widget` shows on `phone` now (empty before the first publish).
    public func tiles(phone: String, widget: String) -> [TileDisplay] {
        tiles(phone: phone).first(where: { $0.slug == widget })?.tiles ?? []
    }

    /// What each tile of every widget shows on `phone` now.
    public func tiles(phone: String) -> [(slug: String, tiles: [TileDisplay])] {
        let nowMs = clock.nowMs
        return withState { $0.tiles(phone: phone, nowMs: nowMs) }
    }

    // MARK: the service's records

    /// The widget's current content, nil before its first publish.
    public func content(slug: String) -> JSONValue? {
        withState { $0.histories[slug]?.last?.content }
    }

    /// Every kept publish of the widget, oldest first, with receive times.
    public func history(slug: String) -> [PublishRecord] {
        withState { $0.histories[slug] ?? [] }
    }

    /// Every kept press event, oldest first.
    public func events() -> [PressEvent] {
        withState { $0.events.events }
    }

    /// How many event streams are open.
    public var openEventStreamCount: Int { withState { $0.streams.count } }

    // MARK: faults

    /// The next `count` PATCHes fail with `status` (and `Retry-After` when given).
    public func failNextPatches(count: Int, status: Int, retryAfterSeconds: Int? = nil) {
        withState {
            $0.faults.failingPatchCount = max(0, count)
            $0.faults.failingPatchStatus = status
            $0.faults.failingRetryAfterSeconds = retryAfterSeconds
        }
    }

    /// The next `count` PATCHes are not answered: their connection is reset.
    public func resetNextPatches(count: Int) {
        withState { $0.faults.resettingPatchCount = max(0, count) }
    }

    /// Every PATCH answer waits this long (real time) until set back to 0.
    public func delayAnswers(milliseconds: Int) {
        withState { $0.faults.answerDelayMs = max(0, milliseconds) }
    }

    /// Events created from now on are sent this long after their creation (simulator clock).
    public func delayEvents(milliseconds: Int64) {
        withState { $0.faults.eventDelayMs = max(0, milliseconds) }
    }

    /// The next `count` event deliveries are sent twice.
    public func duplicateNextEvents(count: Int) {
        withState { $0.faults.duplicateDeliveryCount = max(0, count) }
    }

    /// Every open event stream fails as `mode` says; later streams are normal.
    public func dropEventStreams(_ mode: StreamDropMode) {
        withState { $0.dropStreams(mode) }
    }

    /// Sends a malformed or unknown-type event on every open stream.
    public func injectEvent(_ kind: InjectedEventKind) {
        let nowMs = clock.nowMs
        withState { $0.inject(kind, nowMs: nowMs) }
    }

    /// Delivers, on every open stream, a well-formed press created `ageMs` ago that
    /// no phone could send: older than its 5 s (a network or proxy held it), or for
    /// an action or kind the widget does not have. What a bridge must refuse.
    @discardableResult
    public func injectPress(widget: String, action: String, kind: TileKind, value: Bool? = nil,
                            ageMs: Int64) -> String {
        let nowMs = clock.nowMs
        return withState {
            $0.injectPress(widget: widget, action: action, kind: kind, value: value, ageMs: ageMs, nowMs: nowMs)
        }
    }

    /// Clears every pending fault (streams already dropped stay dropped).
    public func clearFaults() {
        withState { $0.faults = FaultPlan() }
    }
}
