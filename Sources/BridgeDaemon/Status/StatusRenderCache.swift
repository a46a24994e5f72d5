import Glibc
import ShellSupport

/// The status view's rendered answers (issue 38 item 7): the page, its live
/// part and the Webhook Widget view, rendered on one thread of their own at a
/// lower priority, never on the loop, and at most once per change of what they
/// show (the runtime's batch generation, and the second the ages are counted
/// in), and no more often than `minRenderIntervalMs` a route. Between renders
/// every GET is answered from the bytes kept, on the loop, at once; a request
/// that finds them out of date still gets them (at most `minRenderIntervalMs`
/// and one render old) and queues the next render. Only a route never rendered
/// yet waits, off the loop (`.deferred`), for its first render.
final class StatusRenderCache: Sendable {
    /// One rendered answer, and what it was rendered from.
    struct Rendered: Sendable {
        var status: Int
        var contentType: String
        var body: [UInt8]
        var generation: UInt64
        var second: Int64
        var renderedAtMs: Int64
    }

    /// The answer a render makes, from a snapshot taken on the loop.
    typealias Render = @Sendable () -> (status: Int, contentType: String, body: String)

    private struct Job {
        var render: Render
        var generation: UInt64
        var nowMs: Int64
    }

    private struct State {
        var answers: [String: Rendered] = [:]
        /// At most one waiting render a route (routes are few: bounded).
        var pending: [String: Job] = [:]
        var inFlight: Set<String> = []
        var isStopping = false
    }

    static let minRenderIntervalMs: Int64 = 500
    /// Niceness of the render thread: presses first.
    static let renderNiceness: Int32 = 10

    private let state = ConditionLock(State())
    private let thread = OnDemandThread()

    init() {}

    /// On the loop: the bytes to answer `route` with now, or nil when it was never
    /// rendered (then wait with `waitForFirst`). Queues a render when the kept bytes
    /// are out of date and the last render is `minRenderIntervalMs` old; `makeRender`
    /// (the snapshot taken then, on the loop) is called only then.
    func answer(route: String, generation: UInt64, nowMs: Int64, makeRender: () -> Render) -> Rendered? {
        let second = nowMs / 1000
        let (cached, needsRender) = state.withLock { state -> (Rendered?, Bool) in
            let cached = state.answers[route]
            if let cached, cached.generation == generation, cached.second == second { return (cached, false) }
            let isDue = cached.map { nowMs - $0.renderedAtMs >= Self.minRenderIntervalMs || nowMs < $0.renderedAtMs } ?? true
            return (cached, isDue && state.pending[route] == nil && !state.inFlight.contains(route))
        }
        guard needsRender else { return cached }
        let job = Job(render: makeRender(), generation: generation, nowMs: nowMs)
        guard startIfNeeded() else { return cached }
        state.withLock { $0.pending[route] = job }
        return cached
    }

    /// Off the loop: waits (bounded) for the first render of `route`.
    func waitForFirst(route: String, timeoutMs: Int) -> Rendered? {
        state.wait(timeoutMs: timeoutMs, until: { $0.answers[route] != nil || $0.isStopping }) { $0.answers[route] }
    }

    /// Ends the render thread (after the render under way) and waits for it.
    func stop() {
        state.withLock { $0.isStopping = true }
        thread.join()
    }

    private func startIfNeeded() -> Bool {
        thread.startIfNeeded { [self] in run() }
    }

    private func run() {
        // On Linux the nice value is the thread's own: 0 names the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.renderNiceness)
        while true {
            let taken = state.wait(timeoutMs: -1, until: { !$0.pending.isEmpty || $0.isStopping }) { state -> (String, Job)? in
                guard !state.isStopping, let (route, job) = state.pending.first else { return nil }
                state.pending[route] = nil
                state.inFlight.insert(route)
                return (route, job)
            }
            guard let (route, job) = taken else { return }
            let answer = job.render()
            let rendered = Rendered(status: answer.status, contentType: answer.contentType, body: Array(answer.body.utf8),
                                    generation: job.generation, second: job.nowMs / 1000, renderedAtMs: job.nowMs)
            state.withLock { state in
                state.inFlight.remove(route)
                state.answers[route] = rendered
            }
        }
    }
}
