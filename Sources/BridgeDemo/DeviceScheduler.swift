import ShellSupport

/// Runs small delayed jobs for the virtual devices on one thread (a device
/// answers a command after a realistic delay). Bounded.
final class DeviceScheduler: Sendable {
    static let capacity = 1_024

    struct Job: Sendable {
        var dueMs: Int64
        var work: @Sendable () -> Void
    }

    private let jobs = ConditionLock<(items: [Job], isStopped: Bool)>(([], false))

    init() throws(ShellThreadError) {
        _ = try ShellThread { [jobs] in Self.runLoop(jobs) }
    }

    func after(ms delayMs: Int64, _ work: @escaping @Sendable () -> Void) {
        jobs.withLock { state in
            guard state.items.count < Self.capacity else { return }
            state.items.append(Job(dueMs: MonotonicClock.nowMs() + delayMs, work: work))
        }
    }

    func stop() { jobs.withLock { $0.isStopped = true } }

    private static func runLoop(_ jobs: ConditionLock<(items: [Job], isStopped: Bool)>) {
        while true {
            let nextDueMs = jobs.withLock { $0.items.map(\.dueMs).min() }
            let waitMs = nextDueMs.map { Int(max(0, $0 - MonotonicClock.nowMs())) } ?? -1
            let (due, isStopped) = jobs.wait(timeoutMs: waitMs, until: { state in
                state.isStopped || state.items.contains { $0.dueMs <= MonotonicClock.nowMs() }
                    || state.items.map(\.dueMs).min() != nextDueMs
            }) { state -> ([Job], Bool) in
                let nowMs = MonotonicClock.nowMs()
                let ready = state.items.filter { $0.dueMs <= nowMs }.sorted { $0.dueMs < $1.dueMs }
                state.items.removeAll { $0.dueMs <= nowMs }
                return (ready, state.isStopped)
            }
            if isStopped { return }
            for job in due { job.work() }
        }
    }
}
